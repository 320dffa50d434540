export { createSecretBox, type SecretBox, type SecretBoxOptions } from './secret-box.js';
