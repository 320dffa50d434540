export { createSecretBox, type SecretBox } from './secret-box.js';
