// An API error body (docs/api-conventions.md) as a form shows it: messages by field (nested fields as
// dotted names, `image_content.media_resource`, `entries.0.text`) and messages about the whole
// request (`detail`, `non_field_errors`).
import { t } from '../i18n/language.ts';

export interface Problems {
  fields: Record<string, string[]>;
  general: string[];
}

export const NO_PROBLEMS: Problems = { fields: {}, general: [] };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function add(into: Problems, name: string, message: string): void {
  into.fields[name] = [...(into.fields[name] ?? []), message];
}

function collect(body: Record<string, unknown>, prefix: string, into: Problems): void {
  for (const [key, value] of Object.entries(body)) {
    const name = prefix + key;
    if (key === 'detail' && typeof value === 'string') into.general.push(value);
    else if (key === 'non_field_errors' && Array.isArray(value)) into.general.push(...value.map(String));
    else if (Array.isArray(value)) {
      value.forEach((element, index) => {
        if (isObject(element)) collect(element, `${name}.${index}.`, into);
        else add(into, name, String(element));
      });
    } else if (isObject(value)) collect(value, `${name}.`, into);
    else if (typeof value === 'string') add(into, name, value);
  }
}

export function problemsOf(body: unknown, status: number): Problems {
  const problems: Problems = { fields: {}, general: [] };
  if (isObject(body)) collect(body, '', problems);
  if (problems.general.length === 0 && Object.keys(problems.fields).length === 0) {
    problems.general.push(t('problems.serviceAnswered', { status }));
  }
  return problems;
}

/** The service did not answer: its sentence in the language of the moment it is read. */
export const UNREACHABLE: Problems = {
  fields: {},
  get general() {
    return [t('problems.unreachable')];
  },
};
