// Credential events and the account's security log: what other modules, the surfaces and the
// OAuth server call. Table: security_log (migration 0101).
export {
  type CredentialEvent,
  type CredentialEventType,
  type CredentialVia,
  createEventsService as createEvents,
  type Events,
  type SecurityLogEntry,
} from './service.ts';
