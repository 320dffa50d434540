import { z } from 'zod';
import { apiServiceFields, env, keySeedFields, requireKeysOrDevSeed } from '@firewatch/config';
import { defaultBrokerUser, EVENT_QUEUES, PUBLISHING_SERVICES } from '@firewatch/events';

/**
 * Outside production the key sealing secrets' values may be derived from DEV_KEY_SEED;
 * in production whoever held the seed could open every secret, so
 * SECRET_ENCRYPTION_KEYS must be set (as WEBHOOK_SECRET_KEYS is for webhooks).
 */
export const requireSecretKeys = requireKeysOrDevSeed(
  ['SECRET_ENCRYPTION_KEYS'],
  'comma-separated base64 32-byte keys, e.g. from `openssl rand -base64 32`',
);

export const configSchema = z
  .object({
    ...apiServiceFields(8082),
    BODY_LIMIT: z.string().default('1mb'),
    /** base64 32-byte keys sealing the values of secrets; the first seals, all open (rotation). Unset: derived from DEV_KEY_SEED (not in production). */
    SECRET_ENCRYPTION_KEYS: env.list(),
    ...keySeedFields(),
    /** Queue of auth's group events feeding the groups read model (one per deployment). */
    GROUPS_QUEUE: z.string().min(1).default(EVENT_QUEUES['incident-config'].queue),
    /** The broker user of each publishing service (`auth=firewatch-auth,...`); only auth's may feed the groups read model. */
    AMQP_PUBLISHERS: env.distinctPairs(PUBLISHING_SERVICES, defaultBrokerUser),
  })
  // Runs even when other variables are wrong, so one start-up names every problem.
  .superRefine(requireSecretKeys, { when: () => true });

export type Config = z.infer<typeof configSchema>;
