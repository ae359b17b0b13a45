// The operator CLI's commands (decisions.md "operator CLI"): one table that drives parsing, the
// help text and which flags each command takes. Parsing turns argv into a plain, JSON-safe
// `Command`, so the same value runs here or travels over the admin socket to the running service.
import { parseArgs } from 'node:util';
import { features, roles } from '../kernel/actor.ts';
import { canonicalIpRange } from '../kernel/ip.ts';
import { parseIsoTimestamp } from '../kernel/iso-time.ts';
import { parseMailbox } from '../kernel/mailbox.ts';
import { isScope } from '../kernel/access.ts';

export class UsageError extends Error {}

type Values = Record<string, string | boolean | undefined>;

interface Flag {
  type: 'string' | 'boolean';
  required?: boolean;
  help: string;
}

interface CommandSpec {
  summary: string;
  /** Names of positional arguments, all required. */
  positionals?: string[];
  flags: Record<string, Flag>;
  build(values: Values, positionals: string[]): Command;
}

export type LimitFlags = { requestsPerDay?: number | null; requestsPerMinute?: number | null; aiAnswersPerDay?: number | null };

export type Command =
  | { name: 'migrate' }
  | { name: 'ingest'; source: string; from?: string; since?: string }
  | { name: 'accounts create'; email: string; accountName?: string }
  | { name: 'accounts show'; email: string }
  | { name: 'accounts limits'; email: string; limits: LimitFlags }
  | { name: 'teams create'; teamName: string; owner: string; features: string[] }
  | { name: 'teams show'; team: string }
  | { name: 'teams members add'; team: string; email: string; role: string }
  | { name: 'teams members set-role'; team: string; email: string; role: string }
  | { name: 'teams members remove'; team: string; email: string }
  | { name: 'teams features'; team: string; enable: string[]; disable: string[] }
  | { name: 'teams limits'; team: string; limits: LimitFlags }
  | { name: 'keys create'; email: string; keyName: string; scopes: string[]; team?: string; expires?: string; allowedIps?: string[] }
  | { name: 'keys list'; email?: string; team?: string; all: boolean }
  | { name: 'keys revoke'; id: string }
  | { name: 'bulk' };

export type CommandName = Command['name'] | 'serve';

const str = (v: Values, k: string) => (typeof v[k] === 'string' ? (v[k] as string) : undefined);
const list = (text: string | undefined, sep: RegExp) =>
  (text ?? '')
    .split(sep)
    .map((s) => s.trim())
    .filter(Boolean);

function oneOf(kind: string, allowed: readonly string[], value: string): string {
  if (!allowed.includes(value)) throw new UsageError(`unknown ${kind} "${value}" (expected ${allowed.join(', ')})`);
  return value;
}

function limitFlags(v: Values): LimitFlags {
  const out: LimitFlags = {};
  const read = (flag: string, key: keyof LimitFlags) => {
    const raw = str(v, flag);
    if (raw === undefined) return;
    // "default" drops the override; the default of decisions.md applies again.
    if (raw === 'default') out[key] = null;
    else if (/^\d{1,10}$/.test(raw) && Number(raw) <= 1_000_000_000) out[key] = Number(raw);
    else throw new UsageError(`--${flag} must be a whole number from 0 to 1000000000, or "default"; got "${raw}"`);
  };
  read('per-day', 'requestsPerDay');
  read('per-minute', 'requestsPerMinute');
  read('ai-per-day', 'aiAnswersPerDay');
  return out;
}

/** An email flag, read as the one mailbox the service will store and look up (kernel/mailbox.ts). */
function mailbox(v: Values, flag: string): string {
  try {
    return parseMailbox(str(v, flag));
  } catch (err) {
    throw new UsageError(`--${flag}: ${(err as Error).message}`);
  }
}

function isoDate(flag: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!parseIsoTimestamp(value)) {
    throw new UsageError(`--${flag} must be an ISO 8601 date or date-time such as 2030-01-31T00:00:00Z; got "${value}"`);
  }
  return value;
}

const email: Flag = { type: 'string', required: true, help: 'the account’s email address' };
const team: Flag = { type: 'string', required: true, help: 'the team id (printed by teams create)' };
const role: Flag = { type: 'string', required: true, help: roles.join('|') };
const limits: Record<string, Flag> = {
  'per-day': { type: 'string', help: 'requests a day (a number, or "default")' },
  'per-minute': { type: 'string', help: 'requests a minute' },
  'ai-per-day': { type: 'string', help: 'AI answers a day' },
};

export const commands: Record<Exclude<CommandName, 'serve'>, CommandSpec> & { serve: Omit<CommandSpec, 'build'> } = {
  serve: { summary: 'Serve the API (PORT, HOST, DATABASE_URL, DATA_DIR from the environment)', flags: {} },
  migrate: { summary: 'Apply database migrations', flags: {}, build: () => ({ name: 'migrate' }) },
  ingest: {
    summary: 'Fetch a public source into the database (elms, legistar:<client>, lobbying, campaign-finance, committee-history, sample)',
    positionals: ['source'],
    flags: {
      from: { type: 'string', help: 'read recorded files from PATH instead of the live source' },
      since: { type: 'string', help: 'only records changed since DATE' },
    },
    build: (v, [source]) => ({
      name: 'ingest',
      source: source!,
      ...(str(v, 'from') ? { from: str(v, 'from')! } : {}),
      ...(str(v, 'since') ? { since: isoDate('since', str(v, 'since'))! } : {}),
    }),
  },
  'accounts create': {
    summary: 'Create an account',
    flags: { email, name: { type: 'string', help: 'the person’s name' } },
    build: (v) => ({ name: 'accounts create', email: mailbox(v, 'email'), ...(str(v, 'name') ? { accountName: str(v, 'name')! } : {}) }),
  },
  'accounts show': {
    summary: 'Show an account, its teams and limits',
    flags: { email },
    build: (v) => ({ name: 'accounts show', email: mailbox(v, 'email') }),
  },
  'accounts limits': {
    summary: "Show or change an account's limits",
    flags: { email, ...limits },
    build: (v) => ({ name: 'accounts limits', email: mailbox(v, 'email'), limits: limitFlags(v) }),
  },
  'teams create': {
    summary: 'Create a team (prints its id)',
    flags: {
      name: { type: 'string', required: true, help: 'the team’s name' },
      owner: { type: 'string', required: true, help: 'email of the first owner' },
      features: { type: 'string', help: `comma-separated: ${features.join(',')}` },
    },
    build: (v) => ({
      name: 'teams create',
      teamName: str(v, 'name')!,
      owner: mailbox(v, 'owner'),
      features: list(str(v, 'features'), /,/).map((f) => oneOf('feature', features, f)),
    }),
  },
  'teams show': { summary: 'Show a team, its features, limits and members', flags: { team }, build: (v) => ({ name: 'teams show', team: str(v, 'team')! }) },
  'teams members add': {
    summary: 'Add a member to a team',
    flags: { team, email, role },
    build: (v) => ({ name: 'teams members add', team: str(v, 'team')!, email: mailbox(v, 'email'), role: oneOf('role', roles, str(v, 'role')!) }),
  },
  'teams members set-role': {
    summary: "Change a member's role",
    flags: { team, email, role },
    build: (v) => ({ name: 'teams members set-role', team: str(v, 'team')!, email: mailbox(v, 'email'), role: oneOf('role', roles, str(v, 'role')!) }),
  },
  'teams members remove': {
    summary: 'Remove a member (their team keys are revoked)',
    flags: { team, email },
    build: (v) => ({ name: 'teams members remove', team: str(v, 'team')!, email: mailbox(v, 'email') }),
  },
  'teams features': {
    summary: "Switch a team's features on or off",
    flags: { team, enable: { type: 'string', help: 'comma-separated features' }, disable: { type: 'string', help: 'comma-separated features' } },
    build: (v) => ({
      name: 'teams features',
      team: str(v, 'team')!,
      enable: list(str(v, 'enable'), /,/).map((f) => oneOf('feature', features, f)),
      disable: list(str(v, 'disable'), /,/).map((f) => oneOf('feature', features, f)),
    }),
  },
  'teams limits': {
    summary: "Show or change a team's limits",
    flags: { team, ...limits },
    build: (v) => ({ name: 'teams limits', team: str(v, 'team')!, limits: limitFlags(v) }),
  },
  'keys create': {
    summary: 'Make an API key (prints { id, key }; the key is shown once)',
    flags: {
      email: { ...email, help: 'the account that makes and owns the key' },
      name: { type: 'string', required: true, help: 'a name to recognise the key by' },
      scopes: { type: 'string', required: true, help: 'space-separated scopes, e.g. "public.read public.ai"' },
      team: { type: 'string', help: 'make a team key for this team (the account must be its owner or admin)' },
      expires: { type: 'string', help: 'ISO 8601 expiry' },
      'allowed-ips': { type: 'string', help: 'comma-separated addresses or CIDR ranges' },
    },
    build: (v) => {
      const scopes = list(str(v, 'scopes'), /[\s,]+/);
      if (scopes.length === 0) throw new UsageError('--scopes needs at least one scope');
      for (const s of scopes) if (!isScope(s)) throw new UsageError(`unknown scope "${s}"`);
      const ips = list(str(v, 'allowed-ips'), /,/);
      for (const ip of ips) if (!canonicalIpRange(ip)) throw new UsageError(`--allowed-ips: "${ip}" is not an IPv4 or IPv6 address or CIDR range`);
      return {
        name: 'keys create',
        email: mailbox(v, 'email'),
        keyName: str(v, 'name')!,
        scopes,
        ...(str(v, 'team') ? { team: str(v, 'team')! } : {}),
        ...(str(v, 'expires') ? { expires: isoDate('expires', str(v, 'expires'))! } : {}),
        ...(ips.length ? { allowedIps: ips } : {}),
      };
    },
  },
  'keys list': {
    summary: "List an account's keys or a team's keys",
    flags: {
      email: { type: 'string', help: 'the account' },
      team: { type: 'string', help: 'the team id' },
      all: { type: 'boolean', help: 'include revoked keys' },
    },
    build: (v) => {
      if (!str(v, 'email') && !str(v, 'team')) throw new UsageError('keys list needs --email or --team');
      return {
        name: 'keys list',
        ...(str(v, 'email') ? { email: mailbox(v, 'email') } : {}),
        ...(str(v, 'team') ? { team: str(v, 'team')! } : {}),
        all: v.all === true,
      };
    },
  },
  'keys revoke': {
    summary: 'Revoke a key',
    flags: { id: { type: 'string', required: true, help: 'the key id' } },
    build: (v) => ({ name: 'keys revoke', id: str(v, 'id')! }),
  },
  bulk: {
    summary: 'Write a bulk export of the public record now (a CSV per table and a SQLite file, gzipped, into BULK_DIR); the service serves it at /bulk/',
    flags: {},
    build: () => ({ name: 'bulk' }),
  },
};

export type Parsed = { kind: 'help'; topic: string | null } | { kind: 'serve' } | { kind: 'run'; command: Command; json: boolean };

/** argv (without node and the script) → what to do. Throws UsageError on any bad argument. */
export function parseCommandLine(argv: readonly string[]): Parsed {
  const words: string[] = [];
  for (const a of argv) {
    if (a.startsWith('-')) break;
    words.push(a);
  }
  if (words.length === 0 || words[0] === 'help') {
    if (words.length === 0 && argv.length > 0 && !argv.includes('--help') && !argv.includes('-h'))
      throw new UsageError(`unknown option ${argv[0]}; try council --help`);
    return { kind: 'help', topic: words.slice(1).join(' ') || null };
  }
  // The longest run of leading words that names a command.
  let name: CommandName | null = null;
  for (let n = Math.min(words.length, 3); n > 0; n--) {
    const candidate = words.slice(0, n).join(' ');
    if (Object.hasOwn(commands, candidate)) {
      name = candidate as CommandName;
      break;
    }
  }
  if (!name) throw new UsageError(`unknown command "${words.join(' ')}"; try council --help`);
  const spec = commands[name];
  const rest = argv.slice(name.split(' ').length);
  const options: Record<string, { type: 'string' | 'boolean' }> = { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } as never };
  for (const [flag, def] of Object.entries(spec.flags)) options[flag] = { type: def.type };
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: [...rest], options, strict: true, allowPositionals: true });
  } catch (err) {
    // node:util messages are multi-line with hints; keep the first line.
    throw new UsageError(
      `${name}: ${
        String((err as Error).message)
          .split('\n')[0]!
          .split('. To specify')[0]
      }`,
    );
  }
  const values = parsed.values as Values;
  if (values.help) return { kind: 'help', topic: name };
  const wanted = spec.positionals ?? [];
  if (parsed.positionals.length > wanted.length) throw new UsageError(`${name}: unexpected argument "${parsed.positionals[wanted.length]}"`);
  if (parsed.positionals.length < wanted.length) throw new UsageError(`${name}: missing <${wanted[parsed.positionals.length]}>`);
  for (const [flag, def] of Object.entries(spec.flags)) {
    if (def.required && (values[flag] === undefined || values[flag] === '')) throw new UsageError(`${name}: missing --${flag}`);
  }
  if (name === 'serve') return { kind: 'serve' };
  return { kind: 'run', command: (spec as CommandSpec).build(values, parsed.positionals), json: values.json === true };
}
