/** At most this many entities or external_ids per bulk request, as the reference has it. */
export const MAX_BULK = 100;
