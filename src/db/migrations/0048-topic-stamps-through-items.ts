import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';
import { replaceRenderedTriggers, stampStatements } from './0040-rendered-stamps-by-key.ts';
import { itemStampStatements } from './0043-item-rendered-versions.ts';

// SQLite: what an item shows (its list entries, its image content and that content's media)
// stamps the item alone, and an item whose stamp moves stamps its topic with the same version
// (`rendered_items_stamped`), where each of those triggers stamped the topic and the item in turn.
// A list item create of three entries looked its topic up through its list content four times
// (the item's insert, then each entry's) to find it stamped already; now once, by key, when the
// item's own stamp moves. The stamps are the same: a topic moves whenever one of its items does,
// and a deleted or moved item still stamps its topic(s) itself.
//
// PostgreSQL keeps its triggers: its list item creates go through create_list_items, which
// stamps the topic and the item in its own statements (0039, 0043).
export function topicStampsThroughItemsMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      if (dialect !== 'sqlite') return;
      await replaceRenderedTriggers(db, dialect, (table, event) =>
        table === 'items' && event !== 'insert'
          ? `${stampStatements(table, event)} ${itemStampStatements(table, event)}`.trim()
          : itemStampStatements(table, event),
      );
      await sql
        .raw(`CREATE TRIGGER rendered_items_stamped AFTER UPDATE OF rendered_version ON items
          WHEN NEW.rendered_version > OLD.rendered_version
          BEGIN UPDATE topics SET rendered_version = NEW.rendered_version WHERE id = NEW.topic_id AND rendered_version < NEW.rendered_version; END`)
        .execute(db);
    },
  };
}
