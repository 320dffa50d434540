export * from './shift.types.js';
export { computeShifts } from './shift-engine.js';
export { planShifts } from './shift-plan.js';
export { TooManyInputsError, TooManyShiftsError, workBudget } from './work-budget.js';
export { activeWeekOf } from './active-time.js';
