/** The home page FAQ (#faq): 20 entries. `emailContact: true` shows the site's contact address (obfuscated). */
export interface HomeFaqEntry {
  question: string;
  answer: string;
  emailContact?: boolean;
}

export const HOME_FAQ: HomeFaqEntry[] = [
  {
    question: 'What is the AI Tools Directory?',
    answer:
      'A free, curated directory of 150+ AI tools and Model Context Protocol (MCP) servers. Each listing has a description, key features, pricing plans, FAQs and a link to the official website.',
  },
  {
    question: 'What is an MCP server?',
    answer:
      'The Model Context Protocol (MCP) is an open standard for connecting AI applications to tools and data. An MCP server exposes tools, resources or prompts (for example file access, a database or a SaaS API) that MCP clients such as Claude Desktop, Cursor or VS Code can use.',
  },
  {
    question: 'What do the Official and Community badges on MCP servers mean?',
    answer:
      'Official servers are published by the MCP project itself or by the company behind the product they connect to. Community servers are built and maintained by independent developers; review their code and permissions before you install them.',
  },
  {
    question: 'How do I find the right AI tool for my task?',
    answer:
      'Use the search box to look for a name or a task, pick a category such as Development or Image Generation, and switch between AI Tool and MCP Servers with the type filter. Open a tool to compare its features, plans and FAQs.',
  },
  {
    question: 'What pricing models do the tools use?',
    answer:
      'Listings use four pricing models: Free (no cost), Freemium (a free tier with paid upgrades), Subscription (a monthly or yearly fee) and One-time purchase (pay once). Cards show Free, Freemium or Paid; the detail page lists each plan.',
  },
  {
    question: 'How is the list sorted by default?',
    answer:
      'By popularity: tools with a higher popularity score come first, and tools with the same score are ordered by name. You can also sort alphabetically or by pricing, with free tools first.',
  },
  {
    question: 'How often is the directory updated?',
    answer:
      'We review listings weekly: new tools are added, pricing and features are checked against the official websites, and each detail page shows the date it was last updated.',
  },
  {
    question: 'Is the pricing information always current?',
    answer:
      'We check it regularly, but vendors change plans often. Always confirm the current price on the official website before you buy; every listing links to it.',
  },
  {
    question: 'Can I suggest a tool or MCP server?',
    answer:
      'Yes. Use the Submit Tool page to send the name, website and a short description. We review every suggestion and reply within 3-5 business days.',
  },
  {
    question: 'Does it cost anything to be listed?',
    answer:
      'No. Listings are free and chosen on merit. Paid placements such as sponsored cards are clearly marked and are separate from the regular listings.',
  },
  {
    question: 'How can I advertise or feature my AI tool?',
    answer:
      'See the Advertise page for sponsored cards, premium banners and featured spotlights, and join the early-access waitlist. For questions, write to us.',
    emailContact: true,
  },
  {
    question: 'Do I need an account to use the directory?',
    answer: 'No. The directory, the tool pages and the blog are open to everyone without signing up.',
  },
  {
    question: 'Does this site use cookies or track me?',
    answer:
      'No cookies are set. We use a privacy-first analytics service that anonymizes data, processes it in the EU and does no cross-site tracking. See the Privacy Policy for details.',
  },
  {
    question: 'How do I install an MCP server?',
    answer:
      'Most servers run locally through npx, uvx or Docker. Add the server command to your MCP client configuration (for example claude_desktop_config.json or your editor settings), restart the client and the server tools appear. Each listing links to the setup instructions.',
  },
  {
    question: 'Are MCP servers safe to use?',
    answer:
      'A server can act with the permissions you give it, so install servers from sources you trust, limit file and token scopes, prefer read-only access where possible and review the actions a client asks to run.',
  },
  {
    question: 'Which AI tools are best for developers?',
    answer:
      'Open the Development category for coding assistants, AI code editors and app builders, and the MCP Servers category for integrations with GitHub, databases, browsers and cloud platforms.',
  },
  {
    question: 'Can I use these tools for commercial work?',
    answer:
      'Usually yes, but terms differ by tool and plan: some free tiers restrict commercial use or use your data for training. Read the terms on the official website, especially for generated images, audio and video.',
  },
  {
    question: 'What does the popularity score mean?',
    answer:
      'It is our 0-10 estimate of how widely a tool is used and discussed, based on public signals such as adoption, reviews and community activity. Tools without a score are treated as 5.',
  },
  {
    question: 'I found a mistake in a listing. How do I report it?',
    answer:
      'Tell us which tool and what is wrong through the Contact page or by email, and we will check it against the official source and correct it.',
    emailContact: true,
  },
  {
    question: 'Where can I learn more about using AI tools?',
    answer:
      'Our blog publishes tutorials, comparisons and guides on AI tools, automation workflows, MCP and enterprise adoption.',
  },
];
