// Credential events and the account's security log: what other modules, the surfaces and the
// OAuth server call. Table: security_log (migration 0101).
export {
  type CredentialEvent,
  type CredentialEventType,
  type CredentialVia,
  createSecurityLogService as createSecurityLog,
  type SecurityLog,
  type SecurityLogEntry,
} from './service.ts';
