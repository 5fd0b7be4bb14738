import { describe, expect, it } from 'vitest';
import { markdownDescription } from '@/lib/crawl/markdown-meta';

// A Markdown page's lead, as Javadoc's pages come out of the converter: the class's own brief sits
// under its declaration, inside the list of its inheritance; then the summaries, the inherited
// members as one line of names each, and every member's entry (a heading, its declaration, its text).

const names = (page: string, list: string[]) => `\`${list.map((n) => `[${n}](https://j.example/${page}#${n}())`).join(', ')}\``;
const inherited = names('Object.html', ['clone', 'equals', 'finalize', 'getClass', 'hashCode', 'notify', 'notifyAll', 'toString', 'wait']);

function javadocClass(brief: string): string {
  return [
    '- java.lang.Object\n- - [org.example.Evaluator](https://j.example/Evaluator.html)\n  - - org.example.CombiningEvaluator',
    '- Direct Known Subclasses:\n  \n  `[CombiningEvaluator.And](https://j.example/And.html)`, `[CombiningEvaluator.Or](https://j.example/Or.html)`\n  \n  ---\n  \n  ```\n  public abstract class CombiningEvaluator\n  extends Evaluator\n  ```\n  \n' + (brief ? `  ${brief}\n  ` : ''),
    '# Method Summary',
    '## Methods inherited from class java.lang.Object',
    inherited,
    '## Field Detail',
    '## PUBLIC_KEY',
    '```\npublic static final java.lang.String PUBLIC_KEY\n```',
    'The key under which the public identifier of the document type is kept by the parser.',
    'See Also:',
    '[Constant Field Values](https://j.example/constant-values.html#PUBLIC_KEY)',
  ].join('\n\n');
}

describe('a Markdown page’s lead', () => {
  it('is a short brief under the declaration, when the page’s sections follow it', () => {
    expect(markdownDescription(javadocClass('Base combining (and, or) evaluator.'))).toBe('Base combining (and, or) evaluator.');
    // Javadoc's briefs often have no full stop.
    expect(markdownDescription(javadocClass('Evaluator for tag name'))).toBe('Evaluator for tag name');
    expect(markdownDescription(javadocClass('Evaluator for attribute name/value matching (value ending)'))).toBe('Evaluator for attribute name/value matching (value ending)');
    expect(markdownDescription('# Package org.example.nodes\n\nHTML document structure nodes.\n\n- Class Summary\n  \n  | Class | Description |\n  | --- | --- |\n  | [Attribute](https://j.example/Attribute.html) | A single key + value attribute. |\n\n## Related\n\nEvery node of the document model is one of the classes this package holds, as the parser builds them.')).toBe('HTML document structure nodes.');
  });

  it('is never a line of inherited names, nor a member’s text after its declaration', () => {
    // No brief: the inherited methods and the field's own text are all the page has.
    expect(markdownDescription(javadocClass(''))).toBeUndefined();
    const interfaces = `- All Implemented Interfaces:\n  \n  ${names('I.html', ['java.io.Serializable', 'java.lang.Cloneable', 'java.lang.Iterable', 'java.util.Collection', 'java.util.List', 'java.util.RandomAccess'])}\n  \n  \`\`\`\n  public class Elements\n  extends java.util.ArrayList<Element>\n  \`\`\`\n  \n  A list of [\`Element\`](https://j.example/Element.html)s, with methods that act on every element in the list.`;
    expect(markdownDescription(interfaces)).toBe('A list of Elements, with methods that act on every element in the list.');
  });

  it('still comes from a later section when nothing opened the page', () => {
    expect(markdownDescription('# Tally\n\n## Overview\n\nTally counts the words, lines and records of any file you give it, and prints them.')).toBe('Tally counts the words, lines and records of any file you give it, and prints them.');
    // A heading over a command it starts (a guide's step) is no member's entry.
    expect(markdownDescription('# Install\n\n## pip\n\n```\npip install tally\n```\n\nThe installer puts the tally command on your path, ready to count any file.')).toBe('The installer puts the tally command on your path, ready to count any file.');
  });
});
