export { createKitApp, type KitAppParts, type KitAppShell } from './kit-app.js';
export {
  runKitService,
  startKitService,
  type KitServiceConfig,
  type KitServiceContext,
  type KitServiceOptions,
  type KitServiceParts,
} from './run-kit-service.js';
