// A strict reader of the XML our reporters write (no XML parser is a dependency of the project):
// elements, attributes, text, the XML declaration and the five predefined entities plus character
// references. It throws on anything a conforming parser would refuse in that subset: a `<` or `&`
// not starting markup or a known entity, an attribute without quotes or twice, a tag closed out of
// order, a character XML 1.0 cannot hold, content after the root.

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  /** The element's own text, entities decoded. */
  text: string;
}

const NAME = '[A-Za-z_][A-Za-z0-9_.:-]*';
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;

function decode(raw: string, where: string): string {
  if (NOT_XML.test(raw)) throw new Error(`${where}: a character XML 1.0 cannot hold`);
  if (raw.includes('<')) throw new Error(`${where}: a bare <`);
  return raw.replace(/&([^;]*);|&/g, (whole, ref: string | undefined) => {
    if (ref === undefined) throw new Error(`${where}: a bare &`);
    if (ref in ENTITIES) return ENTITIES[ref]!;
    const num = /^#x([0-9a-fA-F]+)$/.exec(ref) ?? /^#([0-9]+)$/.exec(ref);
    if (num) return String.fromCodePoint(parseInt(num[1]!, ref.startsWith('#x') ? 16 : 10));
    throw new Error(`${where}: unknown entity ${whole}`);
  });
}

export function parseXml(text: string): XmlElement {
  let at = 0;
  const decl = /^<\?xml version="1\.0" encoding="UTF-8"\?>\n?/.exec(text);
  if (decl) at = decl[0].length;
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  const tag = new RegExp(`<(/?)(${NAME})((?:\\s+${NAME}\\s*=\\s*(?:"[^"]*"|'[^']*'))*)\\s*(/?)>`, 'y');
  const attr = new RegExp(`(${NAME})\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, 'g');
  while (at < text.length) {
    const lt = text.indexOf('<', at);
    const chunk = text.slice(at, lt === -1 ? text.length : lt);
    if (chunk) {
      if (stack.length === 0) {
        if (chunk.trim()) throw new Error(`text outside the root element at ${at}`);
      } else stack[stack.length - 1]!.text += decode(chunk, `text at ${at}`);
    }
    if (lt === -1) break;
    tag.lastIndex = lt;
    const m = tag.exec(text);
    if (!m) throw new Error(`malformed markup at ${lt}: ${text.slice(lt, lt + 40)}`);
    at = tag.lastIndex;
    const [, closing, name, attrText, selfClosing] = m;
    if (closing) {
      if (attrText || selfClosing) throw new Error(`malformed end tag </${name}> at ${lt}`);
      const open = stack.pop();
      if (!open || open.name !== name) throw new Error(`</${name}> at ${lt} closes ${open ? `<${open.name}>` : 'nothing'}`);
      if (stack.length === 0) root = open;
      continue;
    }
    if (root) throw new Error(`a second root element <${name}> at ${lt}`);
    const el: XmlElement = { name: name!, attrs: {}, children: [], text: '' };
    for (const a of attrText!.matchAll(attr)) {
      if (a[1]! in el.attrs) throw new Error(`attribute ${a[1]} twice on <${name}>`);
      el.attrs[a[1]!] = decode(a[2] ?? a[3] ?? '', `attribute ${a[1]} of <${name}>`);
    }
    if (stack.length) stack[stack.length - 1]!.children.push(el);
    if (selfClosing) {
      if (stack.length === 0) root = el;
    } else stack.push(el);
  }
  if (stack.length) throw new Error(`<${stack[stack.length - 1]!.name}> is never closed`);
  if (!root) throw new Error('no root element');
  return root;
}
