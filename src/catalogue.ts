// The operation catalogue: every operation the service offers, from the modules that own them,
// bound to their services. Every surface performs these through kernel/perform.ts.
import type { Static } from 'typebox';
import { bindOperations, type Operation } from './kernel/catalogue.ts';
import { alertsOperations } from './modules/alerts/operations.ts';
import { answersOperations } from './modules/answers/operations.ts';
import { bulkOperations } from './modules/bulk/operations.ts';
import { credentialsOperations } from './modules/credentials/operations.ts';
import { securityLogOperations } from './modules/security-log/operations.ts';
import { oauthOperations } from './modules/credentials/oauth/operations.ts';
import { publicDataOperations } from './modules/public-data/operations.ts';
import { publicDataBatchOperations } from './modules/public-data/operations-batch.ts';
import { teamDataOperations } from './modules/team-data/operations.ts';
import { accountsOperations } from './modules/accounts/operations.ts';
import { webhooksOperations } from './modules/webhooks/operations.ts';
import type { Services } from './services.ts';

type Definitions = typeof publicDataOperations &
  typeof publicDataBatchOperations &
  typeof teamDataOperations &
  typeof credentialsOperations &
  typeof answersOperations &
  typeof alertsOperations &
  typeof bulkOperations &
  typeof securityLogOperations &
  typeof oauthOperations &
  typeof accountsOperations &
  typeof webhooksOperations;

export type OperationId = keyof Definitions;
/** What an operation takes and returns, from its schemas. */
export type OperationInput<Id extends OperationId> = Static<Definitions[Id]['input']>;
export type OperationOutput<Id extends OperationId> = Static<Definitions[Id]['output']>;

export function createCatalogue(services: Services): Operation[] {
  return [
    ...bindOperations(services.credentials, credentialsOperations),
    ...bindOperations(services.publicData, publicDataOperations),
    ...bindOperations(services.publicData, publicDataBatchOperations),
    ...bindOperations(services.teamData, teamDataOperations),
    ...bindOperations(services.answers, answersOperations),
    ...bindOperations(services.alerts, alertsOperations),
    ...bindOperations(services.bulk, bulkOperations),
    ...bindOperations(services.securityLog, securityLogOperations),
    ...bindOperations(services.oauth, oauthOperations),
    ...bindOperations(services.accounts, accountsOperations),
    ...bindOperations(services.webhooks, webhooksOperations),
  ];
}
