import type { Engine, OrderResource } from '@fulfil/core';
import type { OptionSpecs } from '../args.js';
import { type Command, type CommandContext, printJson, withEngine } from '../command.js';

/**
 * A command that applies one operator intervention to one order (docs/behaviour.md) and prints the
 * order as it is afterwards, as JSON.
 */
export function interventionCommand(spec: {
  name: string;
  summary: string;
  options?: OptionSpecs;
  act(engine: Engine, context: CommandContext, number: string): Promise<OrderResource>;
}): Command {
  return {
    name: spec.name,
    summary: spec.summary,
    positionals: ['<number>'],
    options: spec.options ?? {},
    details: 'Prints the order, as JSON. The change is recorded in its audit trail.',
    async run(context) {
      const [number] = context.args.positionals as [string];
      const order = await withEngine(context, (engine) => spec.act(engine, context, number));
      printJson(context, order);
      return 0;
    },
  };
}
