import { describe, expect, it } from 'vitest';
import { resultOutput } from '../../../src/core/mcp/mcp-result';

describe('an MCP tool result, as the model reads it', () => {
  it('keeps text and structured content, and summarizes images and resources in a line', () => {
    const output = resultOutput({
      content: [
        { type: 'text', text: 'found 2 rows' },
        { type: 'image', data: Buffer.alloc(3000).toString('base64'), mimeType: 'image/png' },
        {
          type: 'resource',
          resource: {
            uri: 'file:///r.bin',
            mimeType: 'application/octet-stream',
            blob: Buffer.alloc(12).toString('base64'),
          },
        },
        { type: 'resource', resource: { uri: 'file:///r.txt', text: 'inline text' } },
        { type: 'resource_link', uri: 'db://rows/1', name: 'row 1' },
      ],
      structuredContent: { rows: [1, 2] },
    });
    expect(output.ok).toBe(true);
    expect(output.content).toBe(
      [
        'found 2 rows',
        '[image: image/png, 3.0 KB; not shown]',
        '[resource file:///r.bin, application/octet-stream: 12 bytes of binary data; not shown]',
        '[resource file:///r.txt]\ninline text',
        '[resource link: db://rows/1 (row 1)]',
        'structured content:\n{\n  "rows": [\n    1,\n    2\n  ]\n}',
      ].join('\n'),
    );
    expect(output.content).not.toContain(Buffer.alloc(3000).toString('base64').slice(0, 40));
  });

  it('shows structured content once when the text already is that JSON, and an isError result is a failure', () => {
    expect(resultOutput({ content: [{ type: 'text', text: '{"a":1}' }], structuredContent: { a: 1 } }).content).toBe(
      '{"a":1}',
    );
    expect(resultOutput({ content: [{ type: 'text', text: 'no such row' }], isError: true })).toEqual({
      ok: false,
      content: 'no such row',
    });
    expect(resultOutput({ content: [] }).content).toBe('(the tool returned nothing)');
  });
});
