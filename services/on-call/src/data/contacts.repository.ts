import type { Knex } from 'knex';
import type { ContactKind, ContactsDeps } from '../domain/contacts/contacts.deps.js';

const TABLES: Record<ContactKind, string> = { email: 'user_email_addresses', phone: 'user_phone_numbers' };
const RULE_COLUMNS: Record<ContactKind, string[]> = {
  email: ['user_email_address_id'],
  phone: ['user_call_number_id', 'user_sms_number_id'],
};
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The queries behind users' contact methods and notification rules (`ctx.deps.contacts`). */
export function createContactsRepository(knex: Knex): ContactsDeps {
  return {
    async person(tx, teamId, userId, lock) {
      const query = (tx ?? knex)('users').where({ team_id: teamId, user_id: userId }).whereNull('deleted_at').first('user_id');
      const row: { user_id: number } | undefined = await (lock ? query.forShare() : query);
      return row && { id: row.user_id };
    },
    async primaryIds(tx, kind, userIds) {
      if (!userIds.length) return new Set();
      const rows: { id: string }[] = await (tx ?? knex)(TABLES[kind])
        .distinctOn('user_id')
        .whereIn('user_id', userIds)
        .orderBy([{ column: 'user_id' }, { column: 'created_at' }, { column: 'id' }])
        .select('id');
      return new Set(rows.map((r) => r.id));
    },
    async owned(tx, kind, userId, ids) {
      const wanted = ids.filter((id) => UUID.test(id));
      if (!wanted.length) return new Set();
      const rows: { id: string }[] = await tx(TABLES[kind]).where({ user_id: userId }).whereIn('id', wanted).forShare().select('id');
      return new Set(rows.map((r) => r.id));
    },
    async rulesUsing(tx, kind, id) {
      const rows: { id: string }[] = await tx('user_notification_rules')
        .where((q) => {
          for (const column of RULE_COLUMNS[kind]) void q.orWhere(column, id);
        })
        .orderBy('position')
        .select('id');
      return rows.map((r) => r.id);
    },
  };
}
