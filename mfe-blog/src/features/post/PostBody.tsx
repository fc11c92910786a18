import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { ServerHtml } from '@aitools/platform';
import { isSitePath, parseBlocks, type Block, type Inline } from './markdown';

function renderInline(nodes: Inline[]): ReactNode[] {
  return nodes.map((node, i) => {
    if (node.type === 'text') return node.text;
    if (node.type === 'strong') return <strong key={i}>{renderInline(node.children)}</strong>;
    if (isSitePath(node.href)) {
      return (
        <Link key={i} to={node.href}>
          {renderInline(node.children)}
        </Link>
      );
    }
    return (
      <a key={i} href={node.href} target="_blank" rel="noopener noreferrer">
        {renderInline(node.children)}
      </a>
    );
  });
}

/**
 * The article's own heading levels under the page's h1: the body's highest heading becomes h2, and no level is
 * skipped (an h4 straight after an h2 becomes h3), capped at h6.
 */
export function outlineLevels(levels: number[]): number[] {
  const top = Math.min(...levels);
  let previous = 1;
  return levels.map((level) => {
    previous = Math.min(level - top + 2, previous + 1, 6);
    return previous;
  });
}

function renderBlock(block: Block, key: number, headingLevel: number): ReactNode {
  switch (block.type) {
    case 'heading': {
      const Tag = `h${headingLevel}` as 'h2';
      return <Tag key={key}>{renderInline(block.children)}</Tag>;
    }
    case 'code':
      return (
        <pre key={key} className="blog-body__code" tabIndex={0}>
          <code data-lang={block.lang || undefined}>{block.text}</code>
        </pre>
      );
    case 'list': {
      const items = block.items.map((item, i) => <li key={i}>{renderInline(item)}</li>);
      return block.ordered ? (
        <ol key={key} start={block.start === 1 ? undefined : block.start}>
          {items}
        </ol>
      ) : (
        <ul key={key}>{items}</ul>
      );
    }
    case 'paragraph':
      return <p key={key}>{renderInline(block.children)}</p>;
  }
}

function bodyElements(content: string): ReactNode[] {
  const blocks = parseBlocks(content);
  const levels = outlineLevels(blocks.flatMap((b) => (b.type === 'heading' ? [b.level] : [])));
  let heading = 0;
  return blocks.map((b, i) => renderBlock(b, i, b.type === 'heading' ? levels[heading++] : 0));
}

/** A post body as React elements (never injected HTML). A hydrated page keeps the server's (ServerHtml): the
 *  markdown is not parsed again in the browser. */
export function PostBody({ content }: { content: string }) {
  return <ServerHtml className="blog-body" render={() => bodyElements(content)} />;
}
