import type { ValidationIssue } from '@firewatch/errors';
import type { HookContext, Row } from '@firewatch/resource-kit';
import { groupIssues, type GroupsDeps } from '../groups/group-references.js';
import type { CatalogType, CatalogPropertiesDeps } from './catalog-properties.lookup.js';
import { propertyValueIssues, type PropertyValue } from './catalog-property-values.js';
import { referenceIssues } from './record-references.js';
import { CATALOG_ENTITY_REFERENCES } from './catalog-entity.fields.js';

/** What a catalog entity's checks read: its catalog's properties and the tenant's teams. */
export type CatalogEntityDeps = CatalogPropertiesDeps & GroupsDeps;

/**
 * The `validate` hook of services and functionalities: the records they newly list are
 * ones the caller sees, the owner groups they newly name are teams of the tenant, and their `properties` (bulk `fields` end up there too) name
 * properties of their own catalog. Another team's id reads as absent, so it never leaks.
 */
export function catalogEntityIssues(catalogType: CatalogType) {
  return async (attributes: Row, ctx: HookContext<CatalogEntityDeps>): Promise<ValidationIssue[]> => {
    const issues = await referenceIssues(attributes, ctx, CATALOG_ENTITY_REFERENCES);
    if (Array.isArray(attributes.owner_group_ids)) {
      issues.push(
        ...(await groupIssues(ctx.deps, ctx.tx, ctx.principal.team_id, {
          attribute: 'owner_group_ids',
          pointer: '/data/attributes/owner_group_ids',
          ids: attributes.owner_group_ids as string[],
          held: ctx.existing?.owner_group_ids as string[] | undefined,
        })),
      );
    }
    if (!Array.isArray(attributes.properties)) return issues;
    return [
      ...issues,
      ...(await propertyValueIssues(
        ctx.deps.catalogProperties,
        ctx.tx,
        ctx.principal.team_id,
        catalogType,
        attributes.properties as PropertyValue[],
      )),
    ];
  };
}
