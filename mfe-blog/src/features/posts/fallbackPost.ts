import type { BlogPost } from './posts';

export const FALLBACK_SLUG = 'how-ai-all-started-history-artificial-intelligence';

/**
 * The built-in sample post (docs/product.md, Post data): shown on the list when there are no posts or loading fails,
 * and on its own page when the API cannot provide it. A shortened version of the article in the database.
 */
export const FALLBACK_POST: BlogPost = {
  slug: FALLBACK_SLUG,
  title: 'How AI All Started: A Brief History of Artificial Intelligence',
  excerpt:
    "From Alan Turing's 1950 question to ChatGPT and the Model Context Protocol, here is how artificial intelligence grew from a summer workshop idea into everyday software.",
  category: 'AI History',
  tags: ['AI', 'History', 'Technology', 'Innovation'],
  publishedAt: '2026-03-04',
  featured: true,
  featuredImage: '',
  featuredImageAlt: '',
  author: 'AI Tools Team',
  readTime: '8 min read',
  content: `Every tool in our [AI tools directory](/) sits on roughly seventy-five years of research, hype, disappointment and breakthroughs. Here is the short version.

## The Question That Started It: Turing, 1950

In 1950 Alan Turing published "Computing Machinery and Intelligence" and proposed the imitation game, now known as the **Turing test**: if a judge exchanging typed messages cannot reliably tell a machine from a person, the machine can reasonably be called intelligent.

## Dartmouth 1956: AI Gets Its Name

The phrase "artificial intelligence" comes from a 1955 proposal by John McCarthy, Marvin Minsky, Nathaniel Rochester and Claude Shannon for a summer research project at Dartmouth College. The 1956 workshop is widely treated as the founding moment of the field.

## Winters and Expert Systems

Promises outran results, and two periods of reduced funding became known as the **AI winters**:

- **Mid-1970s:** the 1973 Lighthill Report in the UK led to funding cuts.
- **Late 1980s to early 1990s:** the market for Lisp machines collapsed and expert systems proved brittle.

## Milestones in Public View

1. **1997:** IBM's Deep Blue defeated world chess champion Garry Kasparov.
2. **2012:** AlexNet won the ImageNet challenge and started the deep learning boom.
3. **2016:** DeepMind's AlphaGo beat Lee Sedol at Go.
4. **2022:** ChatGPT brought large language models to the general public.

## From Transformers to MCP

The 2017 paper "Attention Is All You Need" introduced the transformer, the architecture behind today's language models. In November 2024 Anthropic announced the <strong>Model Context Protocol</strong>, an open standard for connecting AI applications to tools and data; our explainer [What Is the Model Context Protocol?](/blog/what-is-model-context-protocol-mcp) covers how it works.

Browse more articles on the [blog](/blog).`,
};

/** What the list shows: the posts, or the sample post when there are none. */
export function postsOrFallback<T>(posts: T[], fallback: T): T[] {
  return posts.length > 0 ? posts : [fallback];
}
