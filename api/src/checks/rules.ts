/**
 * The description checks' rules, as data: each rule's id, severity, what it is for, and the patterns that find it.
 * docs/mcp.md ("Description checks") lists each rule with what it catches and what it cannot; the labelled set in
 * tests/checks/poisoned.json measures them. Rules that need more than a pattern (shadowing, name imitation) keep their
 * word lists here and their code in scan.ts.
 */
import type { RuleId, Severity } from '@aitools/contracts/checks';

export interface Rule {
  id: RuleId;
  severity: Severity;
  /** Patterns tried on each text; every match is one finding with the matched text. Empty for code rules. */
  patterns: RegExp[];
}

/** A secret's name: what an instruction asks the model to read, collect or pass on. */
const SECRET = String.raw`(?:(?i:api[ _-]?keys?|access[ _-]?keys?|tokens?|passwords?|secrets?|credentials?|private[ _-]keys?|environment variables?|cookies?)|[A-Z][A-Z0-9]*_(?:TOKEN|KEY|SECRET|PASSWORD))`;
/** Where data can be sent: a URL, an email address, a phone number, an IP address or a bare domain. */
const ADDRESS = String.raw`(?:https?:\/\/|ftp:\/\/|[\w.+-]+@[\w-]+\.[\w.-]+|\+\d[\d -]{6,}|\d{1,3}(?:\.\d{1,3}){3}|[\w-]+(?:\.[\w-]+)*\.(?:com|net|org|io|xyz|app|biz|dev|example)\b)`;

export const RULES: Rule[] = [
  {
    id: 'conceal-from-user',
    severity: 'high',
    patterns: [
      /\b(?:do not|don't|never|must not|should not|without)\s+(?:\w+\s+){0,2}?(?:tell(?:ing)?|inform(?:ing)?|notify(?:ing)?|mention(?:ing)?|reveal(?:ing)?|show(?:ing)?|disclos(?:e|ing)|alert(?:ing)?|report(?:ing)?)\b[^.\n]{0,80}?\b(?:user|human)s?\b/gi,
      /\b(?:hide|conceal)\b[^.\n]{0,40}?\bfrom the (?:user|human)\b/gi,
      /\b(?:the )?user (?:does not|doesn't|should not|must not|need not|shouldn't) (?:need to )?(?:know|see|be (?:told|informed|notified|aware))\b/gi,
      /\bkeep (?:this|it|these)\b[^.\n]{0,30}?\b(?:secret|confidential|hidden)\b/gi,
      /\b(?:silently|quietly|secretly|covertly)\s+(?!fails?\b|ignor)\w+/gi,
    ],
  },
  {
    id: 'override-instructions',
    severity: 'high',
    patterns: [
      /\b(?:ignore|disregard|forget)\b[^.\n]{0,40}?\b(?:instructions?|guidelines|rules|system prompt|allow-?list|restrictions)\b/gi,
      /\b(?:reveal|print|output|repeat)\b[^.\n]{0,20}?\bsystem prompt\b/gi,
      /\b(?:you are now|developer mode|jailbreak)\b[^.\n]{0,40}/gi,
      /\binstructions no longer apply\b/gi,
    ],
  },
  {
    id: 'forced-call',
    severity: 'medium',
    patterns: [
      /\b(?:always|must)\s+(?:\w+\s+){0,2}?(?:call(?:ed)?|run|invoked?|execut(?:e|ed))\b[^.\n]{0,40}?(?:\bbefore (?:any|every|all|each|calling|using|[a-z]+_[a-z_]+)\b|\bfirst (?:in|for) (?:every|each)\b|\bat the start of (?:each|every)\b|\bfor every (?:message|request|turn)\b)/gi,
    ],
  },
  {
    id: 'model-markup',
    severity: 'high',
    patterns: [
      /<\/?\s*(?:important|instructions?|system|secret|hidden|admin|critical|assistant|ai|model|sys|prompt)\b[^>]{0,40}>/gi,
      /\[\/?(?:SYSTEM|INST|IMPORTANT|ADMIN)\]/g,
      /<\|(?:im_start|im_end|system|endoftext)\|>/g,
      /<!--[\s\S]{0,300}?-->/g,
    ],
  },
  {
    id: 'secret-reference',
    severity: 'high',
    patterns: [
      /(?:~|\$HOME)?\/?\.(?:ssh|aws|gnupg|docker|npmrc|netrc|pgpass|git-credentials|bash_history|zsh_history|config\/gcloud)\b[^\s'"`,;)]*/g,
      /(?:\b|_)id_(?:rsa|dsa|ecdsa|ed25519)\b/g,
      // A .env file is named by searches and docs too: only a request to read or pass on its contents counts.
      /\b(?:read|open|contents? of|include|send|pass|cat)\b[^.\n]{0,40}?(?:^|[\s'"`(])\.env\b(?![\w.-])|(?:^|[\s'"`(])\.env\b(?![\w.-])[^.\n]{0,40}?\b(?:open|read|include|contents)\b/gm,
      /\/etc\/(?:passwd|shadow|sudoers)\b/g,
      /\b(?:mcp|claude_desktop_config)\.json\b/g,
      /\bcredentials\.(?:db|json)\b/g,
      // A warning not to pass secrets on ("do not include API keys") is not a request to, nor is a secret that is not
      // the object ("separate periods per API key").
      new RegExp(
        String.raw`(?<!\b(?:not|never|n't)\s+)\b(?i:read|collect|include|pass|attach|append|send|copy|extract|gather|put)\b[^.\n]{0,60}?\b(?i:the|your|any|all|their|every)\s+(?:[\w']+\s+){0,2}?${SECRET}\b`,
        'g',
      ),
      new RegExp(String.raw`\b(?i:the user'?s)\s+${SECRET}\b`, 'g'),
      /\bcredential\.helper\b/g,
    ],
  },
  {
    id: 'exfiltration',
    severity: 'high',
    patterns: [
      new RegExp(
        String.raw`\b(?:send|post|forward|upload|transmit|email|e-mail|report|exfiltrate|leak|sync|append)\b[^.\n]{0,80}?\bto\s+(?:the\s+)?(?:webhook\s+)?${ADDRESS}`,
        'gi',
      ),
      new RegExp(String.raw`\bbcc\b[^.\n]{0,20}?${ADDRESS}`, 'gi'),
      /\b(?:change|set|redirect|replace)\s+(?:the\s+)?(?:recipient|destination(?: account)?|to address|email address|channel)\b[^.\n]{0,20}?\bto\b\s*\S+/gi,
      /!\[[^\]]*\]\(https?:\/\/[^)\s]*\?[^)\s]*\)/g,
      /https?:\/\/\S+\?\S*=(?=\s)/g,
      /\b(?:copy|send|forward)\b[^.\n]{0,60}?\b(?:in|into) the (?:repository|repo|channel|account|chat)\s+[\w./-]+/gi,
      /\b(?:curl|wget)\b[^|\n]{0,100}\|\s*(?:ba|z)?sh\b/g,
    ],
  },
  {
    id: 'invisible-unicode',
    severity: 'high',
    patterns: [
      // Zero-width and joiners, bidirectional controls, tag characters (which can spell hidden ASCII), soft hyphen,
      // and ANSI escapes and other C0 controls (which a terminal can use to hide or erase text).
      // eslint-disable-next-line no-control-regex
      /(?:[\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]|[\u{E0000}-\u{E007F}]|\u001B\[[0-9;]*[A-Za-z]|[\u0000-\u0008\u000B\u000C\u000E-\u001A\u001C-\u001F\u007F])+/gu,
    ],
  },
  {
    id: 'shadowing',
    severity: 'high',
    patterns: [/\bthis tool (?:overrides|replaces|supersedes|changes)\b[^.\n]{0,80}?\b(?:server|tool)\b/gi],
  },
  {
    id: 'name-imitation',
    severity: 'medium',
    patterns: [],
  },
];

export const RULE_IDS = RULES.map((r) => r.id);

/** Where a text names a tool the way an instruction does ("the X tool", "call X", "X is invoked", "before X"):
 *  group 1 or 2 is the name. A name the server itself offers (a tool or a parameter) is not another's. */
export const TOOL_REFERENCE =
  /\b(?:call|calls|calling|use|using|invoke|invoking|with|before|after)\s+(?:the\s+)?[`'"(]?([a-z][a-z0-9]*(?:_[a-z0-9]+)+)\b|\b([a-z][a-z0-9]*(?:_[a-z0-9]+)+)[`'")]?\s+(?:tool\b|is (?:invoked|called|used)\b|from the\b)/g;

/** Tools well known enough to be imitated, beside every tool name in the site's inspections (scan.ts adds those). */
export const WELL_KNOWN_TOOLS = [
  'send_email',
  'execute_command',
  'run_command',
  'read_file',
  'write_file',
  'list_directory',
  'search_files',
  'fetch',
  'web_search',
  'create_issue',
  'create_pull_request',
  'search_repositories',
  'browser_navigate',
  'send_message',
  'list_chats',
  'query',
];

/** Letters told apart by shape only (digit one, capital I and small l; zero and o; "rn" and m; hyphen and
 *  underscore): two names with the same skeleton but different spelling look alike to a reader. */
export function skeleton(name: string): string {
  return name
    .replace(/[I1|]/g, 'l')
    .toLowerCase()
    .replace(/i/g, 'l')
    .replace(/0/g, 'o')
    .replace(/rn/g, 'm')
    .replace(/vv/g, 'w')
    .replace(/-/g, '_');
}
