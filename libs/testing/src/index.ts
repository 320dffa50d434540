export { resolveInfrastructure, type Infrastructure } from './infrastructure.js';
export { createTestDatabase, type TestDatabase } from './test-database.js';
export { listen, type Listening } from './listen.js';
export { freePort } from './free-port.js';
export { redundantIndexes } from './redundant-indexes.js';
export { testPrincipal } from './principal.js';
export { collectEvents, type EventCollector } from './amqp.js';
export { TEST_PRINCIPAL_KEYS, signAsGateway } from './gateway-keys.js';
export { indexColumns, missingListOrderIndexes, type ListedTable } from './list-order-indexes.js';
