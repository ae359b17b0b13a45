// Lobbying disclosures (City of Chicago Board of Ethics data): lobbyists, their clients and
// employers, and what they reported.
import { type Static, Type } from 'typebox';
import { dateFrom, dateTo, ListQuery, Money, NullableDate, NullableString, Provenance, qParam, sortParam } from './schema-common.ts';

const id = (description: string) => Type.Optional(Type.String({ minLength: 1, maxLength: 200, description }));
const lobbyist = id('Lobbyist id (lobbyist-<id>; lobbyist-legacy-<id> for one known only by an id from before the City’s 2020 renumbering).');
const client = id('Client id (client-<id>).');
const official = id('Person id of the City official.');

export const Lobbyist = Type.Object({
  id: Type.String(),
  name: Type.String(),
  sortName: Type.String(),
  organization: NullableString('Employer named on the registration.'),
  current: Type.Boolean(),
  ...Provenance,
});

export const Engagement = Type.Object({
  lobbyistId: Type.String(),
  lobbyistName: Type.String(),
  employerId: Type.String(),
  employerName: Type.String(),
  clientId: Type.String(),
  clientName: Type.String(),
  year: Type.Integer(),
});

const Sum = Type.Object({ count: Type.Integer(), amount: Money('Sum, in dollars.') });

export const LobbyistDetail = Type.Object({
  ...Lobbyist.properties,
  engagements: Type.Array(Engagement),
  totals: Type.Object({ compensation: Sum, expenditures: Sum, contributions: Sum }),
});

export const Organisation = Type.Object({
  id: Type.String(),
  name: Type.String(),
  city: NullableString(),
  state: NullableString(),
  country: NullableString(),
  years: Type.Array(Type.Integer(), { description: 'Years it appears in the disclosures.' }),
  ...Provenance,
});

export const OrganisationDetail = Type.Object({ ...Organisation.properties, engagements: Type.Array(Engagement) });

export const LobbyistsQuery = ListQuery({
  client,
  employer: id('Employer id (employer-<id>).'),
  q: qParam('lobbyist names and employers'),
  sort: sortParam(['name', '-name'], 'Order: name (default).'),
});

export const OrganisationsQuery = ListQuery({
  lobbyist,
  year: Type.Optional(Type.Integer({ minimum: 1990, maximum: 2100, description: 'Only those disclosed in this year.' })),
  q: qParam('names'),
  sort: sortParam(['name', '-name'], 'Order: name (default).'),
});

const reportBase = {
  id: Type.String(),
  lobbyistId: Type.String(),
  lobbyistName: Type.String(),
  periodStart: NullableDate('First day of the reporting period.'),
  periodEnd: NullableDate('Last day of the reporting period.'),
  ...Provenance,
};

export const Compensation = Type.Object({ ...reportBase, clientId: NullableString(), clientName: NullableString(), amount: Money('Amount in dollars.') });
export const LobbyingExpenditure = Type.Object({
  ...reportBase,
  clientId: NullableString(),
  clientName: NullableString(),
  date: NullableDate('Date of the expenditure.'),
  amount: Money('Amount in dollars.'),
  kind: Type.Enum(['large', 'small', 'hosting'], { description: 'large, small, or hosting (an event for officials; `recipient` names them).' }),
  action: NullableString(),
  purpose: NullableString(),
  recipient: NullableString(),
});
export const Contribution = Type.Object({
  ...reportBase,
  date: NullableDate('Date of the contribution.'),
  recipient: Type.String(),
  recipientPersonId: NullableString('Person id of the official who received it, when known.'),
  amount: Money('Amount in dollars.'),
});
export const Gift = Type.Object({
  ...reportBase,
  description: NullableString('The gift as reported.'),
  amount: Money('Its value in dollars, as reported.'),
  recipient: Type.String({ description: "The recipient's name as reported." }),
  recipientTitle: NullableString('Title as reported (ALDERMAN, MAYOR, …).'),
  department: NullableString('Department as reported.'),
  recipientPersonId: NullableString('Person id of the alderperson who received it, when the report names exactly one.'),
});
export const Activity = Type.Object({
  ...reportBase,
  clientId: NullableString(),
  clientName: NullableString(),
  action: NullableString('Administrative, Legislative or Both.'),
  actionSought: NullableString(),
  department: NullableString(),
  officialPersonId: NullableString(),
  officialName: NullableString(),
});

const period = { from: dateFrom('reporting periods starting'), to: dateTo('reporting periods starting') };
const sort = sortParam(['period', '-period'], 'Order: -period (newest reporting period first, default).');
export const CompensationQuery = ListQuery({ lobbyist, client, ...period, sort });
export const LobbyingExpendituresQuery = ListQuery({ lobbyist, client, ...period, sort });
export const ContributionsQuery = ListQuery({ lobbyist, official, ...period, sort });
export const GiftsQuery = ListQuery({ lobbyist, official, ...period, sort });
export const ActivityQuery = ListQuery({ lobbyist, client, official, ...period, q: qParam('actions sought and departments'), sort });

export type LobbyistOut = Static<typeof Lobbyist>;
export type LobbyistDetailOut = Static<typeof LobbyistDetail>;
export type OrganisationOut = Static<typeof Organisation>;
export type OrganisationDetailOut = Static<typeof OrganisationDetail>;
export type LobbyistsInput = Static<typeof LobbyistsQuery>;
export type OrganisationsInput = Static<typeof OrganisationsQuery>;
export type CompensationInput = Static<typeof CompensationQuery>;
export type LobbyingExpendituresInput = Static<typeof LobbyingExpendituresQuery>;
export type ContributionsInput = Static<typeof ContributionsQuery>;
export type GiftsInput = Static<typeof GiftsQuery>;
export type ActivityInput = Static<typeof ActivityQuery>;
