export { createDb, type Db, type DbOptions } from './create-db.js';
export { migrate, type Migration, type Migrations } from './migrate.js';
export { ensureDatabase, databaseName } from './ensure-database.js';
export { isUniqueViolation, uniqueConstraintName } from './pg-errors.js';
export { openDatabase, type OpenDatabaseOptions } from './open-database.js';
export { lockForTransaction } from './advisory-lock.js';
export { provisionServiceDatabase, type ServiceDatabase } from './provision.js';
export { applyFilters, escapeLike, pageWithTotal, type CustomFilter, type FilterColumns } from './list-query.js';
export { createPreparedSelects, type PlainBinding, type PreparedSelects } from './prepared-select.js';
