export * from './shift.types.js';
export { computeShifts, shiftWindow, type ShiftQuery } from './shift-engine.js';
export { planShifts, OVERRIDE_REACH, type ShiftPlan } from './shift-plan.js';
export { TooManyShiftsError, workBudget, type WorkBudget } from './work-budget.js';
export { activeWeekOf, type ActiveSettings } from './active-time.js';
