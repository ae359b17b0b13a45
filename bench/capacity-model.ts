// The capacity model implied by CPU per request: how many requests a second one core of the
// service and one core of PostgreSQL can answer, and so how many instances one PostgreSQL core
// keeps busy. An instance runs its requests on one event loop, so it uses about one core at most:
// a service core is an instance. The figures hold for one kind of request at a time; a mix costs
// the weighted sum of its kinds. CPU only: a route waiting on the disk or on locks is slower than
// this, never faster.

export interface CpuCost {
  name: string;
  /** Requests answered (2xx) while the CPU was counted. */
  requests: number;
  /** CPU ms the service's process spent meanwhile. */
  serviceMs: number;
  /** CPU ms the database's PostgreSQL backends spent meanwhile; null when not measurable here. */
  postgresMs: number | null;
}

export interface Capacity {
  name: string;
  serviceCpuMsPerRequest: number;
  postgresCpuMsPerRequest: number | null;
  /** Requests a second one fully busy service core (about one instance) answers. */
  rpsPerServiceCore: number;
  /** Requests a second one fully busy PostgreSQL core answers; null when PostgreSQL spent no measurable time. */
  rpsPerPostgresCore: number | null;
  /** Busy instances one PostgreSQL core feeds (rpsPerPostgresCore ÷ rpsPerServiceCore); null when unbounded. */
  instancesPerPostgresCore: number | null;
  /** The same for a PostgreSQL server of `postgresCores` cores. */
  instancesPerPostgresServer: number | null;
}

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

/** The model for one kind of request; throws when no request was answered (nothing to divide by). */
export function capacityOf(cost: CpuCost, postgresCores: number): Capacity {
  if (cost.requests <= 0) throw new Error(`${cost.name}: no request answered, so no cost per request`);
  const serviceMs = cost.serviceMs / cost.requests;
  const postgresMs = cost.postgresMs === null ? null : cost.postgresMs / cost.requests;
  const perServiceCore = 1000 / serviceMs;
  const perPostgresCore = postgresMs === null || postgresMs <= 0 ? null : 1000 / postgresMs;
  const instances = perPostgresCore === null ? null : perPostgresCore / perServiceCore;
  return {
    name: cost.name,
    serviceCpuMsPerRequest: round(serviceMs, 4),
    postgresCpuMsPerRequest: postgresMs === null ? null : round(postgresMs, 4),
    rpsPerServiceCore: round(perServiceCore, 0),
    rpsPerPostgresCore: perPostgresCore === null ? null : round(perPostgresCore, 0),
    instancesPerPostgresCore: instances === null ? null : round(instances, 2),
    instancesPerPostgresServer: instances === null ? null : round(instances * postgresCores, 2),
  };
}
