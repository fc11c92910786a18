import { postJson, writeJson } from '@aitools/platform';
import { EARLY_ACCESS_SOURCE, EARLY_ACCESS_TYPE, earlyAccessSchema, validateForm, type EarlyAccessRecord } from '@aitools/api/contracts/forms';

/** The server's own check (the shared schema), run before sending: its message, or null when the address passes. */
export function earlyAccessEmailError(email: string): string | null {
  const result = validateForm(earlyAccessSchema, { email });
  return result.success ? null : (result.fieldErrors.email ?? null);
}

export const EARLY_ACCESS_STORAGE_KEY = 'earlyAccessSignup';

export function earlyAccessRecord(email: string, now: Date): EarlyAccessRecord {
  return { email: email.trim(), timestamp: now.toISOString(), type: EARLY_ACCESS_TYPE, source: EARLY_ACCESS_SOURCE };
}

/**
 * Keeps the record in local storage (a failure there only warns) and stores it on the server.
 * Resolves true only when the server confirmed it.
 */
export async function joinEarlyAccess(email: string, now = new Date()): Promise<boolean> {
  const record = earlyAccessRecord(email, now);
  writeJson(EARLY_ACCESS_STORAGE_KEY, record);
  try {
    const res = await postJson('/api/early-access', { email: record.email });
    return res.ok;
  } catch {
    return false;
  }
}
