import { z } from 'zod';
import { apiServiceFields } from '@firewatch/config';

/** Liquid rendering bounds are code constants (domain/liquid-engine.ts): they protect the service, not a deployment choice. */
export const configSchema = z.object({
  ...apiServiceFields(8083),
  BODY_LIMIT: z.string().default('1mb'),
});

export type Config = z.infer<typeof configSchema>;
