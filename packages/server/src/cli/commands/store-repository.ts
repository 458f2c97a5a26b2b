import { KyselyRepository } from '@fulfil/storage-kysely';
import { openRepository } from '../../database-url.js';
import type { CommandContext } from '../command.js';

/** Runs `work` over the SQL repository `--db` names (migrated), closing it afterwards. */
export async function withSqlRepository<T>(
  context: CommandContext,
  work: (repository: KyselyRepository) => Promise<T>,
): Promise<T> {
  const repository = await openRepository(context.databaseUrl, { baseDir: context.baseDir });
  try {
    if (!(repository instanceof KyselyRepository)) {
      throw new Error('this database adapter cannot export or import a store');
    }
    return await work(repository);
  } finally {
    await repository.close();
  }
}
