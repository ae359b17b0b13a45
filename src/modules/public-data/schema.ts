// Every public-data resource as presented, and every list query: one schema per resource drives
// request validation, response serialization and the OpenAPI description.
export * from './schema-actions.ts';
export * from './schema-common.ts';
export * from './schema-legislation.ts';
export * from './schema-lobbying.ts';
export * from './schema-meetings.ts';
export * from './schema-money.ts';
export * from './schema-people.ts';
export * from './schema-search.ts';
export * from './schema-sources.ts';
export * from './schema-record.ts';
export * from './schema-wards.ts';
