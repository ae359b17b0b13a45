// The mail someone gets when a team's owner or admin adds them by email: who added them, to which
// team, and a sign-in link that lands on the team's dashboard (with the sign-in page, returning
// there, for when the link has expired).
import type { MailMessage } from '../../kernel/mail.ts';
import type { MemberAdded } from '../accounts/index.ts';

/** Names and addresses go into one line each: a team or person name never breaks the mail's layout. */
const oneLine = (s: string) => s.replace(/[\r\n\t]+/g, ' ').trim();

export function invitationMail(added: MemberAdded, link: string, signinPage: string, lifetime: string): MailMessage {
  const team = oneLine(added.team.name);
  const inviter = added.by.name ? `${oneLine(added.by.name)} (${added.by.email})` : added.by.email;
  const role = added.role === 'member' ? 'a member' : `an ${added.role}`;
  return {
    to: added.account.email,
    subject: `${inviter} added you to ${team} on Council Tracker`,
    text: [
      `${inviter} added you to the team "${team}" on Council Tracker, as ${role}.`,
      '',
      added.newAccount
        ? "Council Tracker follows Chicago's City Council: the team's bills, stances, notes and target lists are on its dashboard. Open this link to sign in (this makes your account) and go to the team's dashboard:"
        : "Open this link to sign in and go to the team's dashboard:",
      '',
      link,
      '',
      `The link works once and expires in ${lifetime}. Later, sign in with this address here: ${signinPage}`,
      "If you do not want to be in this team, sign in and leave it from the team's Members page.",
    ].join('\n'),
  };
}
