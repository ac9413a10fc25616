// turndown-plugin-gfm 1.0.2 ships no type declarations.
declare module 'turndown-plugin-gfm' {
  import type TurndownService from 'turndown';

  const plugins: {
    gfm: TurndownService.Plugin;
    tables: TurndownService.Plugin;
    strikethrough: TurndownService.Plugin;
    taskListItems: TurndownService.Plugin;
    highlightedCodeBlock: TurndownService.Plugin;
  };
  export = plugins;
}
