import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { isSitePath, parseBlocks, type Block, type Inline } from '../lib/markdown';

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

function renderBlock(block: Block, key: number): ReactNode {
  switch (block.type) {
    case 'heading': {
      const Tag = `h${block.level}` as const;
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

/** A post body as React elements (never injected HTML). */
export function PostBody({ content }: { content: string }) {
  return <div className="blog-body">{parseBlocks(content).map(renderBlock)}</div>;
}
