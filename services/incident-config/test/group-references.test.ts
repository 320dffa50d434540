import type { Transaction } from '@firewatch/resource-kit';
import { groupIssues, type GroupDirectory } from '../src/domain/groups/group-references.js';

const UPPER = '7D1C3B2A-0F4E-4A5B-8C6D-9E8F7A6B5C4D';
const tx = {} as Transaction;

/** A directory that knows `teams` and records what it was asked. */
function directory(teams: string[]) {
  const asked: string[][] = [];
  const groups: GroupDirectory = {
    async known(_tx, _team, ids) {
      asked.push([...ids]);
      return new Set(ids.filter((id) => teams.includes(id)));
    },
  };
  return { deps: { groups }, asked };
}

const list = (ids: string[], held?: string[]) => ({ attribute: 'owner_group_ids', pointer: '/data/attributes/owner_group_ids', ids, held });

describe('groupIssues', () => {
  it('judges only the ids a write newly names, and points at each unknown one', async () => {
    const { deps, asked } = directory(['a1']);
    const issues = await groupIssues(deps, tx, 1, list(['a1', 'held', 'nope'], ['held']));
    expect(issues.map((i) => [i.pointer, i.code])).toEqual([['/data/attributes/owner_group_ids/2', 'invalid_reference']]);
    expect(asked).toEqual([['a1', 'nope']]);
  });

  it('takes a held UUID in any spelling as held: a record migration 0101 left in upper case can be sent back as read', async () => {
    // Writes arrive lower-cased (normalGroupId); a record may still hold another spelling.
    const { deps, asked } = directory([]);
    expect(await groupIssues(deps, tx, 1, list([UPPER.toLowerCase()], [UPPER]))).toEqual([]);
    expect(asked).toEqual([]);
  });
});
