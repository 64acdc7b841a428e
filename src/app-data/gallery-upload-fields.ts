// Checks an upload's text fields against UploadFieldsSchema. Multipart bodies are read by the
// handler, not by Fastify, so the schema is compiled here (TypeBox) and its errors are put in
// the shape the rest of the API uses.
import type { FastifySchemaValidationError } from 'fastify';
import { Compile } from 'typebox/compile';
import type { TLocalizedValidationError } from 'typebox/error';
import type { FieldErrors } from '../errors.ts';
import { normaliseBody } from '../http/body-normalisation.ts';
import { formatValidationErrors } from '../http/validation-errors.ts';
import { UploadFieldsSchema, type UploadFields } from './gallery-schemas.ts';

const validator = Compile(UploadFieldsSchema);

/** TypeBox reports all missing properties in one error; Ajv (whose shape we format) one each. */
function asAjvErrors(errors: TLocalizedValidationError[]): FastifySchemaValidationError[] {
  return errors.flatMap<unknown>((error) =>
    error.keyword === 'required'
      ? (error.params as { requiredProperties: string[] }).requiredProperties.map((missingProperty) => ({
          ...error,
          params: { missingProperty },
        }))
      : [error],
  ) as unknown as FastifySchemaValidationError[];
}

/** Trims the fields and checks them against the text rule of every body, then the schema. */
export function checkUploadFields(fields: Record<string, unknown>): { valid: UploadFields } | { errors: FieldErrors } {
  const textErrors = normaliseBody(fields);
  if (Object.keys(textErrors).length > 0) return { errors: textErrors };
  if (validator.Check(fields)) return { valid: fields };
  return { errors: formatValidationErrors(asAjvErrors(validator.Errors(fields)), fields) };
}
