// Clear 400 messages from request-schema failures: name the parameter and what it must be,
// instead of Ajv's "querystring/limit must be <= 200".
interface AjvError {
  keyword: string;
  instancePath: string;
  message?: string;
  params: Record<string, any>;
}

const where: Record<string, string> = { querystring: 'query parameter', params: 'path parameter', body: 'body field', headers: 'header' };

const formats: Record<string, string> = {
  date: 'a real calendar date written YYYY-MM-DD (e.g. 2023-02-28)',
  'date-time': 'an ISO 8601 timestamp with a time zone (e.g. 2024-01-31T00:00:00Z)',
};

export function schemaErrorMessage(errors: readonly AjvError[], dataVar: string): string {
  const e = errors[0];
  if (!e) return 'The request is invalid.';
  const kind = where[dataVar] ?? dataVar;
  const name = e.instancePath.replace(/^\//, '').replaceAll('/', '.');
  const subject = name ? `${kind} "${name}"` : `the ${kind === 'body field' ? 'body' : 'query'}`;
  switch (e.keyword) {
    case 'additionalProperties':
      return `Unknown ${kind} "${e.params.additionalProperty}".`;
    case 'required':
      return `Missing required ${kind} "${e.params.missingProperty}".`;
    case 'enum':
      return `Invalid ${subject}: must be one of ${(e.params.allowedValues as unknown[]).map((v) => `"${v}"`).join(', ')}.`;
    case 'format':
      return `Invalid ${subject}: must be ${formats[e.params.format] ?? `in format ${e.params.format}`}.`;
    case 'maximum':
    case 'minimum':
      return `Invalid ${subject}: must be ${e.keyword === 'maximum' ? 'at most' : 'at least'} ${e.params.limit}.`;
    case 'maxLength':
      return `Invalid ${subject}: must be at most ${e.params.limit} characters.`;
    case 'minLength':
      return `Invalid ${subject}: must not be empty.`;
    case 'type':
      return `Invalid ${subject}: must be ${e.params.type === 'integer' ? 'a whole number' : `of type ${e.params.type}`}.`;
    default:
      return `Invalid ${subject}: ${e.message ?? 'not accepted'}.`;
  }
}

export function schemaErrorFormatter(errors: readonly AjvError[], dataVar: string): Error {
  return new Error(schemaErrorMessage(errors, dataVar));
}
