import { defineAction } from '@firewatch/resource-kit';
import { pingColumns } from './heartbeat-timing.js';

/**
 * `POST /v1/heartbeats/{id}/ping` (the reference's pingHeartbeat): the job ran. The
 * heartbeat is `active` until one interval from now; an expired one is active again
 * (its alert stays for people to resolve: the job missed a run, which someone should
 * look at). Answers 204; emits `heartbeat.pinged`. A disabled heartbeat notes the ping
 * and keeps no timer.
 */
export const pingHeartbeatAction = defineAction({
  name: 'ping',
  on: 'item',
  method: 'post',
  capabilities: ['update'],
  summary: 'Ping a heartbeat',
  response: { status: 204, description: 'the ping was noted' },
  async run({ record, resource }) {
    await resource.update(record!, pingColumns(record!, new Date()), 'pinged');
    return { status: 204 };
  },
});
