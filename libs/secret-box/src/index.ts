export { createSecretBox, type SecretBox, type SecretBoxOptions } from './secret-box.js';
export { resealInBackground, resealStale, type ResealLog, type ResealReport, type SealedValue, type SealedValues } from './reseal.js';
export { sealedColumn } from './sealed-column.js';
