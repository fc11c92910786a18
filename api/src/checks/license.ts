/**
 * A server's license, from its package's own metadata (the `license` its npm package declares, kept in the
 * inspection), read as an SPDX expression: spdx-expression-parse decides whether it is one, and spdx-correct turns a
 * common misspelling ("Apache 2.0", "MIT License") into its SPDX identifier first (docs/dependencies.md).
 */
import parse from 'spdx-expression-parse';
import correct from 'spdx-correct';
import type { LicenseFacts } from '@aitools/contracts/checks';

const isExpression = (text: string) => {
  try {
    parse(text);
    return true;
  } catch {
    return false;
  }
};

export function licenseFacts(declared: string | undefined): LicenseFacts {
  const text = declared?.trim();
  if (!text) return { status: 'missing' };
  if (isExpression(text)) return { status: 'known', expression: text };
  // npm's own words for "no license granted" and "the terms are in a file": not misspellings to correct (spdx-correct
  // would read UNLICENSED as the Unlicense, the opposite).
  if (/^UNLICENSED$|^SEE LICEN[CS]E IN /i.test(text)) return { status: 'unknown', declared: text.slice(0, 200) };
  const corrected = correct(text, { upgrade: true });
  if (corrected && isExpression(corrected)) return { status: 'known', expression: corrected, declared: text };
  return { status: 'unknown', declared: text.slice(0, 200) };
}
