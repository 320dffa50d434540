export {
  startServiceHarness,
  type CallOptions,
  type HarnessAnswer,
  type ServiceHarness,
  type ServiceHarnessOptions,
} from './service-harness.js';
export { createTestBrokerUsers, type TestBrokerUser, type TestBrokerUsers, type TestBrokerUsersOptions } from './broker-users.js';
