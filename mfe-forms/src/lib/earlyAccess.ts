import { postJson, writeJson } from '@aitools/platform';
import { EARLY_ACCESS_SOURCE, EARLY_ACCESS_TYPE, type EarlyAccessRecord } from '@aitools/api/contracts/forms';

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
