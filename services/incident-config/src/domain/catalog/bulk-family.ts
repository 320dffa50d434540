import type { z } from 'zod';

/** What the bulk actions need to know of one catalog family (functionalities, services, environments). */
export interface BulkFamily {
  /** JSON:API type, e.g. `functionalities`. */
  type: string;
  /** Singular, for messages. */
  noun: string;
  /** The catalog whose properties `fields` name (a catalog property's `catalog_type`). */
  catalogType: string;
  /** The family's `name` schema: required for new records, optional for updates. */
  name: z.ZodType;
  /** The other attributes an entity may carry (the reference's bulk entity schema, less external_id, name and fields). */
  attributes: z.ZodObject;
  /** The declaration's `ownerGroups`: an entity cannot name them, so a group key's new records get its groups. */
  ownerGroups?: { column: string };
}
