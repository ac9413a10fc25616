// Headings of sections that are not the page's content, in any language the page is in: related material
// ("Related articles", "Lire aussi"), comments ("3 Comments", "Kommentare") and, on a product's page, buyers'
// reviews. Headings are matched whole (after an optional count), so a sentence that merely mentions comments is no
// heading. Never a site's class names.

export type SectionKind = 'related' | 'comments' | 'reviews';

const RELATED = new RegExp(
  `^(${[
    'related(\\s+(posts?|articles?|stories|coverage|content|reading|news|products?|items?|links|videos|guides|resources|topics|searches|categories|collections|brands|questions|pages|services|publications|courses|events|recipes|tools|solutions|reports|insights|podcasts|episodes))?',
    'you\\s+(may|might|could)\\s+also\\s+(like|enjoy|be\\s+interested\\s+in|want\\s+to\\s+read)',
    '(you\\s+may|might)\\s+also\\s+like',
    'more\\s+(from|on|in|by|like\\s+this|stories|articles|news|coverage|to\\s+(read|explore|discover)|posts|products)\\b.*',
    'read\\s+(next|more|also)',
    'also\\s+read',
    'recommended(\\s+(for\\s+you|reading|articles|stories|posts|products|videos))?',
    '(popular|trending|latest|recent|top|other|similar)\\s+(posts|articles|stories|news|products|items|reads|content)',
    'most\\s+(read|popular|viewed|shared|commented)(\\s+\\w+)?',
    '(latest\\s+)?from\\s+(the|our)\\s+blog',
    '(featured|latest|recent)\\s+(resources|insights|articles|posts|stories|blog\\s+posts)',
    'trending(\\s+now)?',
    'what\\s+to\\s+read\\s+next',
    // A news site's strips of its other stories, and the ad networks' ones.
    'up\\s+next', 'watch\\s+next', 'don[\'’]?t\\s+miss(\\s+(this|these|out))?', 'editor[\'’]?s[\'’]?\\s+(picks?|choice)',
    'in\\s+other\\s+news', '(from\\s+)?around\\s+the\\s+web', '(sponsored|promoted|partner)\\s+(stories|content|links|posts)',
    'customers\\s+(also|who)\\s+.*(bought|viewed|purchased).*',
    '(we\\s+found\\s+)?other\\s+products\\s+you\\s+(may|might)\\s+(also\\s+)?like',
    'frequently\\s+bought\\s+together',
    '(your\\s+)?(recently|previously)\\s+viewed(\\s+(products|items))?',
    '(your\\s+)?browsing\\s+history',
    'shop\\s+(similar|related)\\b.*',
    'weitere\\s+(artikel|beiträge|themen)',
    'ähnliche\\s+(artikel|beiträge|produkte)',
    'das\\s+könnte\\s+sie\\s+(auch\\s+)?interessieren',
    'auch\\s+interessant',
    'mehr\\s+zum\\s+thema',
    'à\\s+lire\\s+aussi',
    'lire\\s+aussi',
    'articles?\\s+(similaires|liés|connexes)',
    'sur\\s+le\\s+même\\s+sujet',
    'vous\\s+aimerez\\s+aussi',
    'te\\s+puede\\s+interesar',
    'también\\s+te\\s+puede\\s+interesar',
    '(artículos|noticias|entradas)\\s+relacionad[oa]s',
    'potrebbe\\s+interessarti',
    'articoli\\s+correlati',
    'leggi\\s+anche',
    'leia\\s+também',
    '(artigos|posts|notícias)\\s+relacionad[oa]s',
    'você\\s+também\\s+pode\\s+gostar',
    'gerelateerde\\s+artikelen',
    'lees\\s+ook',
    'relaterade\\s+artiklar',
    'läs\\s+också',
    'relaterte\\s+artikler',
    'les\\s+også',
    'powiązane\\s+artykuły',
    'czytaj\\s+(także|też)',
    'похожие\\s+(статьи|новости|материалы)',
    'читайте\\s+также',
    'смотрите\\s+также',
    '相关(文章|阅读|推荐|新闻)',
    '推荐阅读',
    '関連記事',
    'おすすめ記事',
    '관련\\s*기사',
    'ilgili\\s+(haberler|yazılar)',
    // Links out of the page, after the article (not "See also": documentation keeps its own cross-references).
    'external\\s+links', 'weblinks', 'liens\\s+externes', 'enlaces\\s+externos', 'collegamenti\\s+esterni',
    'externe\\s+links', 'externa\\s+länkar', 'linki\\s+zewnętrzne', '外部链接', '外部リンク',
  ].join('|')})\\s*[:.!…]?$`,
  'iu',
);

// A count may lead ("14 Comments", "This Post Has 18 Comments") or follow, in brackets or glued on by markup
// ("Comments (15)", "Comments15" from <h2>Comments<span>15</span></h2>).
const COMMENTS = new RegExp(
  `^((this\\s+(post|article|entry|story)\\s+has\\s+)?(\\d+|one|no)\\s+)?(${[
    'comments?',
    // WordPress's own: "14 thoughts on “Title”", "One thought on …" (never "Thoughts" alone: an essay's section)
    'thoughts?(?=\\s+(on|to)\\b)',
    '(show|view|load|read|see)\\s+(all\\s+)?(\\d+\\s+)?comments',
    'responses?',
    'replies',
    'reader\\s+comments',
    'join\\s+the\\s+(discussion|conversation)',
    '(leave|post|add|write)\\s+a\\s+(reply|comment|response)',
    'kommentare?',
    'commentaires?',
    'laisser\\s+un\\s+commentaire',
    'comentarios?',
    'deja\\s+(un|tu)\\s+comentario',
    'commenti',
    'lascia\\s+un\\s+commento',
    'comentários',
    'deixe\\s+um\\s+comentário',
    'reacties',
    'kommentarer',
    'komentarze',
    'комментарии',
    '评论',
    'コメント',
    '댓글',
  ].join('|')})(\\s+(on|to|for|zu|sur|en|su|em|op)\\b.*)?(\\s*\\(?\\d[\\d,.]*\\)?)?\\s*[:.]?$`,
  'iu',
);

// Customer reviews and seller feedback on a product page: what buyers said of it, not the product's description.
// The heading may go on ("Top reviews from the United Kingdom", "Reviews with images").
const REVIEWS = new RegExp(
  `^(\\d+\\s+)?(${[
    '((customer|product|top|verified|guest|user)\\s+)?reviews?',
    'ratings?\\s*(&|and)\\s*reviews?',
    'reviews?\\s*(&|and)\\s*ratings?',
    '(seller|customer)\\s+feedback',
    'bewertungen',
    'kunden(rezensionen|bewertungen)',
    'avis(\\s+(clients?|des\\s+clients))?',
    'reseñas',
    'opiniones(\\s+de\\s+(clientes|usuarios))?',
    'recensioni',
    'avaliações',
    'beoordelingen',
    'recensies',
    'opinie',
    'отзывы',
    'レビュー',
    'カスタマーレビュー',
    '商品评价',
    '评价',
    '리뷰',
  ].join('|')})(\\s+(from|with|for|on|of|about)\\b.*)?(\\s*\\(\\d[\\d,. ]*\\))?\\s*[:.]?$`,
  'iu',
);

/** Whether a heading or label names related content ("Related articles", "Also read", "Lire aussi"). */
export function namesRelated(text: string): boolean {
  return RELATED.test(text);
}

/** What a heading says its section is; reviews only on a product's page. */
export function sectionKind(heading: string, product: boolean): SectionKind | null {
  if (RELATED.test(heading)) return 'related';
  if (COMMENTS.test(heading)) return 'comments';
  return product && REVIEWS.test(heading) ? 'reviews' : null;
}
