export * from './shift.types.js';
export { computeShifts, compareShifts, shiftWindow, type ShiftQuery } from './shift-engine.js';
export { TooManyShiftsError } from './rotation-shifts.js';
export { activeWeekOf, type ActiveSettings } from './active-time.js';
export { isClock, isTimeZone } from './local-time.js';
