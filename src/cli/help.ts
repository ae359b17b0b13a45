// The help text, generated from the command table so it cannot drift from what is parsed.
import { type CommandName, commands } from './commands.ts';

export function helpText(topic: string | null): string {
  const names = Object.keys(commands) as CommandName[];
  const shown = topic && Object.hasOwn(commands, topic) ? [topic as CommandName] : names;
  const lines = ['Usage: council <command> [flags] [--json]', ''];
  if (!topic) {
    lines.push('The operator CLI of Council Tracker. With --json a command prints one JSON object on stdout.');
    lines.push('A bad argument prints a one-line error and exits 2; other failures exit 1.');
    lines.push('While the service runs on the embedded database, commands go through its admin socket.', '');
  }
  for (const name of shown) {
    const spec = commands[name];
    const positionals = 'positionals' in spec && spec.positionals ? spec.positionals.map((p) => ` <${p}>`).join('') : '';
    lines.push(`  ${name}${positionals}`, `      ${spec.summary}`);
    for (const [flag, def] of Object.entries(spec.flags)) {
      const arg = def.type === 'string' ? ` ${flag.toUpperCase().replace(/-/g, '_')}` : '';
      lines.push(`      --${flag}${arg}${def.required ? '' : ' (optional)'}: ${def.help}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
