// Strict ISO 8601 timestamps from people (CLI flags, API bodies): an RFC 3339 date-time with a
// zone, or a plain date meaning midnight UTC. Date.parse alone accepts far more ("2025", "March 3")
// and rolls impossible dates over (Feb 31 → Mar 3), which would silently mean something else.
const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:[Zz]|[+-]\d{2}:\d{2}))?$/;

export function parseIsoTimestamp(text: string): Date | null {
  const m = ISO_DATE_TIME.exec(text.trim());
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const day = new Date(Date.UTC(y, mo - 1, d));
  if (day.getUTCFullYear() !== y || day.getUTCMonth() !== mo - 1 || day.getUTCDate() !== d) return null;
  const at = new Date(text.trim());
  return Number.isNaN(at.getTime()) ? null : at;
}
