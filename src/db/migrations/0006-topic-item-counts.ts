import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../database.ts';

// Each topic counts its items, kept by triggers on items whatever writes them (the API, the
// seeder, cascades), so the items-per-topic quota is checked by reading one number instead of
// counting rows: with thousands of items in a topic the count was the largest part of adding
// one. Items never move between topics through the API; the triggers follow a move anyway.
export function topicItemCountsMigration(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('topics')
        .addColumn('item_count', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await sql`UPDATE topics SET item_count = (SELECT COUNT(*) FROM items WHERE items.topic_id = topics.id)`.execute(db);
      if (dialect === 'sqlite') {
        await sql`CREATE TRIGGER items_counted_insert AFTER INSERT ON items
          BEGIN UPDATE topics SET item_count = item_count + 1 WHERE id = NEW.topic_id; END`.execute(db);
        await sql`CREATE TRIGGER items_counted_delete AFTER DELETE ON items
          BEGIN UPDATE topics SET item_count = item_count - 1 WHERE id = OLD.topic_id; END`.execute(db);
        await sql`CREATE TRIGGER items_counted_move AFTER UPDATE OF topic_id ON items WHEN OLD.topic_id IS NOT NEW.topic_id
          BEGIN
            UPDATE topics SET item_count = item_count - 1 WHERE id = OLD.topic_id;
            UPDATE topics SET item_count = item_count + 1 WHERE id = NEW.topic_id;
          END`.execute(db);
        return;
      }
      await sql`CREATE FUNCTION count_topic_items() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF TG_OP IN ('DELETE', 'UPDATE') THEN
            UPDATE topics SET item_count = item_count - 1 WHERE id = OLD.topic_id;
          END IF;
          IF TG_OP IN ('INSERT', 'UPDATE') THEN
            UPDATE topics SET item_count = item_count + 1 WHERE id = NEW.topic_id;
          END IF;
          RETURN NULL;
        END $$`.execute(db);
      await sql`CREATE TRIGGER items_counted AFTER INSERT OR DELETE OR UPDATE OF topic_id ON items
        FOR EACH ROW EXECUTE FUNCTION count_topic_items()`.execute(db);
    },
  };
}
