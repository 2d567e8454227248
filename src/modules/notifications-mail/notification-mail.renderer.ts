import { randomUUID } from 'node:crypto';
import { hashToChecksum } from '../../common/hashing/weblate-hash';
import { pathOf } from '../../common/links/link-builder';
import { PLURAL_SEPARATOR } from '../../common/text/word-count';
import { actionName } from '../changes/change-actions';
import { FREQ_DAILY, FREQ_MONTHLY, FREQ_WEEKLY } from '../users/notification-kinds';

// The mails themselves: an HTML part and its plain-text alternative (Weblate converts its HTML templates to
// text; here both are written from the same data), the subject, and the headers of integration.md §4.4. Pure:
// the caller loads the change details and passes the site's settings.

/** What a mail says about one change (loaded by notification-mail.service.ts, CHANGE_DETAILS_SQL). */
export interface ChangeDetails {
  id: string;
  action: number;
  timestamp: Date;
  target: string;
  old: string;
  /** The text of a comment (changes 3 keep it in `details`). */
  comment: string;
  projectName: string | null;
  projectSlug: string | null;
  componentName: string | null;
  componentSlug: string | null;
  languageName: string | null;
  languageCode: string | null;
  unitId: string | null;
  unitSource: string | null;
  unitContext: string | null;
  unitIdHash: string | null;
  actorUsername: string | null;
  actorFullName: string | null;
}

export interface MailSite {
  siteUrl: string;
  siteTitle: string;
  subjectPrefix: string;
}

export interface RenderedMail {
  fromName: string;
  subject: string;
  html: string;
  text: string;
  headers: Record<string, string>;
}

/** Subjects per kind, in the words of Weblate's mail templates. */
const KIND_SUBJECTS: Record<string, string> = {
  RepositoryNotification: 'Repository operation',
  LockNotification: 'Component lock changed',
  ParseErrorNotification: 'Parse error',
  MergeFailureNotification: 'Repository failure',
  NewAlertNotificaton: 'New alert',
  NewTranslationNotificaton: 'New language',
  NewContributorNotificaton: 'New contributor',
  NewSuggestionNotificaton: 'New suggestion',
  NewCommentNotificaton: 'New comment',
  MentionCommentNotificaton: 'You were mentioned in a comment',
  LastAuthorCommentNotificaton: 'New comment on a string you translated',
  NewStringNotificaton: 'New string to translate',
  TranslatedStringNotificaton: 'String translated',
  ApprovedStringNotificaton: 'String approved',
  ChangedStringNotificaton: 'String changed',
};

const FREQUENCY_NAMES: Record<number, string> = { [FREQ_DAILY]: 'Daily', [FREQ_WEEKLY]: 'Weekly', [FREQ_MONTHLY]: 'Monthly' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** Plural forms on separate lines; long texts cut, so one huge string cannot make a huge mail. */
function readable(text: string, limit = 2000): string {
  const joined = text.split(PLURAL_SEPARATOR).join('\n');
  return joined.length > limit ? `${joined.slice(0, limit)}…` : joined;
}

/** A header value on one line. */
function oneLine(text: string, limit = 300): string {
  return text.replace(/[\r\n\t]+/g, ' ').slice(0, limit);
}

function siteDomain(site: MailSite): string {
  try {
    return new URL(site.siteUrl).hostname || 'localhost';
  } catch {
    return 'localhost';
  }
}

/** "Project/Component — Language", as far as the change names them. */
function where(change: ChangeDetails): string {
  const path = [change.projectName, change.componentName].filter((part): part is string => part !== null).join('/');
  return change.languageName ? `${path} — ${change.languageName}` : path;
}

/** The web page of what the change is about: the string, the translation, the component or the project. */
function webLink(change: ChangeDetails, site: MailSite): string | null {
  const { projectSlug: p, componentSlug: c, languageCode: l } = change;
  if (p === null) return null;
  if (c === null) return `${site.siteUrl}${pathOf('projects', p)}`;
  if (l === null) return `${site.siteUrl}${pathOf('projects', p, c)}`;
  if (change.unitIdHash !== null) return `${site.siteUrl}${pathOf('translate', p, c, l)}?checksum=${hashToChecksum(BigInt(change.unitIdHash))}`;
  return `${site.siteUrl}${pathOf('projects', p, c, l)}`;
}

function actorName(change: ChangeDetails): string | null {
  return change.actorFullName?.trim() || change.actorUsername;
}

/** The facts of one change as label/value rows, shared by instant mails and digests. */
function factRows(change: ChangeDetails): Array<[string, string]> {
  const rows: Array<[string, string]> = [['Action', actionName(change.action)]];
  const actor = actorName(change);
  if (actor) rows.push(['User', actor]);
  if (change.unitContext) rows.push(['Key', readable(change.unitContext, 300)]);
  if (change.unitSource !== null) rows.push(['Source string', readable(change.unitSource)]);
  if (change.old) rows.push(['Previous', readable(change.old)]);
  if (change.target) rows.push(['New', readable(change.target)]);
  if (change.comment) rows.push(['Comment', readable(change.comment)]);
  rows.push(['Time', change.timestamp.toISOString()]);
  return rows;
}

function htmlDocument(title: string, body: string): string {
  return `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body>\n${body}\n</body></html>\n`;
}

function htmlFacts(rows: Array<[string, string]>): string {
  const cells = rows.map(([label, value]) => `<tr><th align="left" valign="top">${escapeHtml(label)}</th><td style="white-space: pre-wrap">${escapeHtml(value)}</td></tr>`);
  return `<table>${cells.join('')}</table>`;
}

function textFacts(rows: Array<[string, string]>): string {
  return rows.map(([label, value]) => `${label}: ${value.replace(/\n/g, '\n  ')}`).join('\n');
}

/** An instant mail about `change` for `recipientUsername`, of kind `notification`. */
export function renderInstantMail(change: ChangeDetails, notification: string, recipientUsername: string, site: MailSite): RenderedMail {
  const domain = siteDomain(site);
  const title = `${KIND_SUBJECTS[notification] ?? actionName(change.action)}${where(change) ? ` in ${where(change)}` : ''}`;
  const link = webLink(change, site);
  const facts = factRows(change);
  const html = htmlDocument(
    title,
    `<h1>${escapeHtml(title)}</h1>\n${htmlFacts(facts)}${link ? `\n<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>` : ''}\n` +
      `<p>You receive this because of your notification subscriptions on ${escapeHtml(site.siteTitle)}.</p>`,
  );
  const text =
    `${title}\n\n${textFacts(facts)}\n${link ? `\n${link}\n` : ''}\n` +
    `-- \nYou receive this because of your notification subscriptions on ${site.siteTitle}.\n`;
  const headers: Record<string, string> = {
    'X-Weblate-Notification': notification,
    'X-Weblate-Recipient-Username': oneLine(recipientUsername),
    'Message-ID': `<${randomUUID()}@${domain}>`,
  };
  // String events thread per string (Weblate: <project/component/language/unit@domain>).
  if (change.unitId !== null && change.projectSlug && change.componentSlug && change.languageCode) {
    const thread = `<${[change.projectSlug, change.componentSlug, change.languageCode, change.unitId].map(encodeURIComponent).join('/')}@${domain}>`;
    headers['In-Reply-To'] = thread;
    headers.References = thread;
  }
  return {
    fromName: actorName(change) ?? site.siteTitle,
    subject: oneLine(`${site.subjectPrefix}${title}`, 400),
    html,
    text,
    headers,
  };
}

export interface DigestEntry {
  notification: string;
  change: ChangeDetails;
}

/** One translation's count for a summary kind (notification-summaries.ts). */
export interface DigestSummary {
  notification: string;
  projectName: string;
  projectSlug: string;
  componentName: string;
  componentSlug: string;
  languageName: string;
  languageCode: string;
  count: number;
  /** The user's translations for the kind in all; more than listed means some were left out. */
  translations: number;
}

/** Headings and search queries of the summary kinds (Weblate links each row to the matching strings). */
const SUMMARY_SECTIONS: Record<string, { heading: string; query: string }> = {
  PendingSuggestionsNotification: { heading: 'Strings with suggestions', query: 'has:suggestion' },
  ToDoStringsNotification: { heading: 'Unfinished strings', query: 'state:<translated' },
};

/**
 * One digest for one user: the newest changes first, at most DIGEST_LIMIT of them; `omitted` more were left
 * out (Weblate's "overlimit", §4.5); then the summary kinds, one row per translation with its count.
 */
export function renderDigestMail(
  entries: readonly DigestEntry[],
  omitted: number,
  summaries: readonly DigestSummary[],
  frequency: number,
  recipientUsername: string,
  site: MailSite,
): RenderedMail {
  const domain = siteDomain(site);
  const total = entries.length + omitted;
  const title = `${FREQUENCY_NAMES[frequency] ?? 'Periodic'} digest${total > 0 ? `: ${total} ${total === 1 ? 'change' : 'changes'}` : ''}`;
  const htmlItems: string[] = [];
  const textItems: string[] = [];
  for (const { notification, change } of entries) {
    const heading = `${KIND_SUBJECTS[notification] ?? actionName(change.action)}${where(change) ? ` in ${where(change)}` : ''}`;
    const link = webLink(change, site);
    const facts = factRows(change);
    htmlItems.push(`<h2>${escapeHtml(heading)}</h2>\n${htmlFacts(facts)}${link ? `\n<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>` : ''}`);
    textItems.push(`== ${heading}\n${textFacts(facts)}${link ? `\n${link}` : ''}`);
  }
  if (omitted > 0) {
    const overLimit = `${omitted} more ${omitted === 1 ? 'change was' : 'changes were'} left out of this digest.`;
    htmlItems.push(`<p>${escapeHtml(overLimit)}</p>`);
    textItems.push(overLimit);
  }
  for (const [kind, section] of Object.entries(SUMMARY_SECTIONS)) {
    const rows = summaries.filter((summary) => summary.notification === kind);
    if (rows.length === 0) continue;
    const lines = rows.map((row) => ({
      label: `${row.projectName}/${row.componentName} — ${row.languageName}`,
      count: row.count,
      link: `${site.siteUrl}${pathOf('translate', row.projectSlug, row.componentSlug, row.languageCode)}?q=${encodeURIComponent(section.query)}`,
    }));
    const sum = rows.reduce((acc, row) => acc + row.count, 0);
    const more = rows[0].translations - rows.length;
    const tail = more > 0 ? `${more} more ${more === 1 ? 'translation' : 'translations'} not listed.` : '';
    htmlItems.push(
      `<h2>${escapeHtml(section.heading)}</h2>\n<table>${lines.map((line) => `<tr><td><a href="${escapeHtml(line.link)}">${escapeHtml(line.label)}</a></td><td align="right">${line.count}</td></tr>`).join('')}` +
        `<tr><th align="left">Total</th><th align="right">${sum}</th></tr></table>${tail ? `\n<p>${escapeHtml(tail)}</p>` : ''}`,
    );
    textItems.push(`== ${section.heading}\n${lines.map((line) => `${line.label}: ${line.count}\n  ${line.link}`).join('\n')}\nTotal: ${sum}${tail ? `\n${tail}` : ''}`);
  }
  const footer = `You receive this digest because of your notification subscriptions on ${site.siteTitle}.`;
  const kinds = [...new Set([...entries.map((entry) => entry.notification), ...summaries.map((summary) => summary.notification)])];
  return {
    fromName: site.siteTitle,
    subject: oneLine(`${site.subjectPrefix}${title}`, 400),
    html: htmlDocument(title, `<h1>${escapeHtml(title)}</h1>\n${htmlItems.join('\n')}\n<p>${escapeHtml(footer)}</p>`),
    text: `${title}\n\n${textItems.join('\n\n')}\n\n-- \n${footer}\n`,
    headers: {
      'X-Weblate-Notification': kinds.join(', '),
      'X-Weblate-Recipient-Username': oneLine(recipientUsername),
      'Message-ID': `<${randomUUID()}@${domain}>`,
    },
  };
}
