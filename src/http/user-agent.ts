// A client's User-Agent as the service stores and shows it (sessions, emergency link views):
// made safe by the text rule of every body (no control characters, no unpaired surrogates) and
// cut to 255 characters.

export const USER_AGENT_MAX_LENGTH = 255;

// C0 and C1 controls, and DEL: a header's bytes arrive as Latin-1 characters.
const CONTROL_CHARACTERS = /[\u0000-\u001F\u007F-\u009F]/g;

/** The header made safe to store; null when there is none, or nothing is left of it. */
export function storedUserAgent(header: string | undefined): string | null {
  const userAgent = header?.replace(CONTROL_CHARACTERS, '').trim().slice(0, USER_AGENT_MAX_LENGTH).toWellFormed();
  return userAgent || null;
}
