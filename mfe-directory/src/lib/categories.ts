/** The 15 categories of the filter bar (SPEC section 3), in display order. */
export const CATEGORIES = [
  'All',
  'AI Assistants',
  'Content Creation',
  'Development',
  'Productivity',
  'Business & Marketing',
  'Research & Analysis',
  'Communication',
  'MCP Servers',
  'Music & Audio',
  'Video & Animation',
  'Image Generation',
  'Education & Learning',
  'Finance & Investment',
  'Design & Creative',
] as const;

/** Categories seen in data under another name: "AI Tools" is AI Assistants, "MCP" is MCP Servers. */
export function normaliseCategory(category: string | undefined): string | undefined {
  if (category === 'AI Tools') return 'AI Assistants';
  if (category === 'MCP') return 'MCP Servers';
  return category;
}
