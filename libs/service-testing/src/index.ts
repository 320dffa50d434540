export { startServiceHarness, type CallOptions, type HarnessAnswer, type ServiceHarness, type ServiceHarnessOptions } from './service-harness.js';
