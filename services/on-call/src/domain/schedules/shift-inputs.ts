import { activeWeekOf, TooManyInputsError, type RotationSpec, type RotationType } from '../shifts/index.js';
import type { RotationRecord, RotationScope, ShiftsDeps } from '../on-call.deps.js';

const TYPES: Record<string, RotationType> = {
  ScheduleDailyRotation: 'daily',
  ScheduleWeeklyRotation: 'weekly',
  ScheduleBiweeklyRotation: 'biweekly',
  ScheduleMonthlyRotation: 'monthly',
  ScheduleCustomRotation: 'custom',
};

/** A stored rotation as the shift engine's input. */
function rotationSpec(r: RotationRecord): RotationSpec {
  return {
    id: r.id,
    schedule_id: r.schedule_id,
    position: r.position,
    type: TYPES[r.schedule_rotationable_type]!,
    handoff_time: r.schedule_rotationable_attributes.handoff_time ?? '00:00',
    handoff_day: r.schedule_rotationable_attributes.handoff_day ?? null,
    shift_length: r.schedule_rotationable_attributes.shift_length ?? null,
    shift_length_unit: r.schedule_rotationable_attributes.shift_length_unit ?? null,
    time_zone: r.time_zone,
    starts_at: (r.start_time ?? r.created_at).getTime(),
    ends_at: r.end_time ? r.end_time.getTime() : null,
    members: r.member_slots.map((m) => m.user_id),
    departures: r.member_slots.flatMap((m, index) => (m.left_at ? [{ index, at: m.left_at.getTime() }] : [])),
    active: activeWeekOf(r),
  };
}

/**
 * The rotations in `scope` as the shift engine's input (a rotation of a type it does not
 * know is left out). Past `scope.bounds` it throws `TooManyInputsError`: the read stopped
 * one rotation or member slot past the bound.
 */
export async function readRotations(shifts: ShiftsDeps, scope: RotationScope): Promise<RotationSpec[]> {
  const records = await shifts.rotations(scope);
  const { bounds } = scope;
  if (bounds && records.length > bounds.rotations) throw new TooManyInputsError('rotations', bounds.rotations);
  if (bounds && records.reduce((n, r) => n + r.member_slots.length, 0) > bounds.memberSlots)
    throw new TooManyInputsError('member slots', bounds.memberSlots);
  return records.filter((r) => TYPES[r.schedule_rotationable_type]).map(rotationSpec);
}
