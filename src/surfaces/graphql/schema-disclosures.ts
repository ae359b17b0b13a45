// Campaign money and lobbying disclosures in the graph (SDL), as v1's /money and /lobbying
// resources: the same field names, the same list arguments under their REST names, amounts as the
// decimal strings REST gives ("2500.00"). schema.ts puts these types and fields into the graph.
const listArgs = 'limit: Int, cursor: String, updated_since: String';
const period = 'from: String, to: String, sort: String';

export const disclosureTypes = /* GraphQL */ `
"""A count of records and the sum of their amounts (a decimal string, in dollars)."""
type Sum { count: Int! amount: String! }
type DatedSum { count: Int! amount: String! firstDate: String lastDate: String }

"""A campaign committee with its receipt and expenditure totals."""
type CampaignCommitteeDetail {
  id: String! name: String! isbeId: String personId: String personName: String ward: Int sourceUrl: String updatedAt: String!
  receipts: DatedSum! expenditures: DatedSum!
}

"""A contribution a campaign committee received."""
type Receipt {
  id: String! committeeId: String! date: String! amount: String! contributor: String! contributorType: String occupation: String employer: String
  city: String state: String zip: String sourceUrl: String updatedAt: String!
}

"""What a campaign committee spent."""
type Expenditure { id: String! committeeId: String! date: String! amount: String! payee: String! purpose: String city: String state: String zip: String sourceUrl: String updatedAt: String! }

type MoneyPeriod { period: String! start: String! receipts: Sum! expenditures: Sum! }
"""Receipts and expenditures summed per month, quarter or year."""
type MoneyTotals { period: String! data: [MoneyPeriod!]! }

"""A registered lobbyist."""
type Lobbyist { id: String! name: String! sortName: String! organization: String current: Boolean! sourceUrl: String updatedAt: String! }
"""A lobbyist working for a client through an employer, in a year."""
type Engagement { lobbyistId: String! lobbyistName: String! employerId: String! employerName: String! clientId: String! clientName: String! year: Int! }
type LobbyistTotals { compensation: Sum! expenditures: Sum! contributions: Sum! }
type LobbyistDetail {
  id: String! name: String! sortName: String! organization: String current: Boolean! sourceUrl: String updatedAt: String!
  engagements: [Engagement!]! totals: LobbyistTotals!
}

"""A lobbyist's client or employer."""
type Organisation { id: String! name: String! city: String state: String country: String years: [Int!]! sourceUrl: String updatedAt: String! }
type OrganisationDetail {
  id: String! name: String! city: String state: String country: String years: [Int!]! sourceUrl: String updatedAt: String!
  engagements: [Engagement!]!
}

"""Compensation a lobbyist reported."""
type Compensation {
  id: String! lobbyistId: String! lobbyistName: String! periodStart: String periodEnd: String sourceUrl: String updatedAt: String!
  clientId: String clientName: String amount: String!
}
"""A lobbying expenditure."""
type LobbyingExpenditure {
  id: String! lobbyistId: String! lobbyistName: String! periodStart: String periodEnd: String sourceUrl: String updatedAt: String!
  clientId: String clientName: String date: String amount: String! kind: String! action: String purpose: String recipient: String
}
"""A political contribution a lobbyist reported."""
type LobbyingContribution {
  id: String! lobbyistId: String! lobbyistName: String! periodStart: String periodEnd: String sourceUrl: String updatedAt: String!
  date: String recipient: String! recipientPersonId: String amount: String!
}
`;

/** The disclosures' page types, for schema.ts's list of pages. */
export const disclosurePages = ['Receipt', 'Expenditure', 'Lobbyist', 'Organisation', 'Compensation', 'LobbyingExpenditure', 'LobbyingContribution'];

/** The disclosures' top-level fields (Query), each binding the operation resolvers.ts names. */
export const disclosureFields = /* GraphQL */ `
  """Campaign committees of alderpersons (as /money/committees)."""
  campaignCommittees(person: String, ward: Int, sort: String, ${listArgs}): CampaignCommitteePage!
  campaignCommittee(id: String!): CampaignCommitteeDetail
  """Contributions received by campaign committees (as /money/receipts)."""
  receipts(committee: String, person: String, ward: Int, ${period}, ${listArgs}): ReceiptPage!
  """Campaign committees' spending (as /money/expenditures)."""
  expenditures(committee: String, person: String, ward: Int, ${period}, ${listArgs}): ExpenditurePage!
  """Receipts and expenditures per month, quarter or year (as /money/totals)."""
  moneyTotals(committee: String, person: String, ward: Int, period: String, from: String, to: String): MoneyTotals!
  lobbyists(client: String, employer: String, q: String, sort: String, ${listArgs}): LobbyistPage!
  lobbyist(id: String!): LobbyistDetail
  lobbyingClients(lobbyist: String, year: Int, q: String, sort: String, ${listArgs}): OrganisationPage!
  lobbyingClient(id: String!): OrganisationDetail
  lobbyingEmployers(lobbyist: String, year: Int, q: String, sort: String, ${listArgs}): OrganisationPage!
  lobbyingEmployer(id: String!): OrganisationDetail
  lobbyingCompensation(lobbyist: String, client: String, ${period}, ${listArgs}): CompensationPage!
  lobbyingExpenditures(lobbyist: String, client: String, ${period}, ${listArgs}): LobbyingExpenditurePage!
  lobbyingContributions(lobbyist: String, official: String, ${period}, ${listArgs}): LobbyingContributionPage!
  """Whom lobbyists sought action from (as /lobbying/activity)."""
  lobbyingActivity(lobbyist: String, client: String, official: String, q: String, ${period}, ${listArgs}): LobbyingContactPage!
`;
