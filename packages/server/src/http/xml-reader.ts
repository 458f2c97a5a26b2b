import { setImmediate as nextTurn } from 'node:timers/promises';
import { decodeXmlReferences } from '@fulfil/core/xml';
import { HttpError, undecodableBody } from './errors.js';

/**
 * A one-pass reader of the XML that requests are written in: elements, text,
 * CDATA, comments, processing instructions; attributes are skipped. It builds the tree of
 * strings directly, and counts as it goes, so a body over the element or depth limit is refused
 * at the first element too many, before any more work is spent on it. A general parser
 * (fast-xml-parser) builds two intermediate trees and validates in a separate pass: several
 * times the time, all of it on the event loop that every other client shares. Even so, a large
 * body takes tens of milliseconds: the reader hands the event loop back every
 * {@link ELEMENTS_PER_TURN} elements, so the requests of other clients (a health check) are
 * served in between instead of after it.
 *
 * DOCTYPE and entity declarations never reach it (xml.ts refuses them first); only the five
 * predefined entities and character references are decoded.
 */

export interface XmlReadLimits {
  /** Most elements in one document; past it, 413. */
  elements: number;
  /** Deepest nesting of elements (the root is depth 1); past it, 400. */
  depth: number;
}

/** An element's value: its text when it has no child element, else its children by name. */
export type XmlValue = string | XmlChildren;
export interface XmlChildren {
  [name: string]: XmlValue | XmlValue[];
}

interface Open {
  name: string;
  children: XmlChildren | null;
  text: string;
  cdata: string;
}

const NAME = /[A-Za-z_][\w.:-]*/y;
/** Names that would reach an object's prototype instead of becoming a field. */
const RESERVED = new Set(['__proto__', 'constructor', 'prototype']);

class Malformed extends Error {}

/** About a millisecond of reading: small enough that no one waits behind one turn. */
export const ELEMENTS_PER_TURN = 1000;

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < index; at = text.indexOf('\n', at + 1)) {
    line += 1;
  }
  return line;
}

function addChild(parent: Open, name: string, value: XmlValue): void {
  parent.children ??= {};
  const existing = parent.children[name];
  if (existing === undefined) parent.children[name] = value;
  else if (Array.isArray(existing)) existing.push(value);
  else parent.children[name] = [existing, value];
}

function elementValue(element: Open): XmlValue {
  return element.children ?? decodeXmlReferences(element.text.trim()) + element.cdata;
}

/**
 * Reads `text` into `{ [rootName]: value }`. Throws a 400 HttpError for malformed XML or nesting
 * past `limits.depth`, a 413 for more than `limits.elements` elements.
 */
export async function readXmlDocument(text: string, limits: XmlReadLimits): Promise<XmlChildren> {
  const stack: Open[] = [];
  const document: Open = { name: '', children: null, text: '', cdata: '' };
  let elements = 0;
  let position = 0;
  const fail = (message: string, at: number): never => {
    throw new Malformed(`${message} (line ${lineOf(text, at)})`);
  };
  try {
    for (;;) {
      const open = text.indexOf('<', position);
      const end = open === -1 ? text.length : open;
      const current = stack[stack.length - 1];
      if (current) current.text += text.slice(position, end);
      else if (text.slice(position, end).trim() !== '') fail('text outside the root element', end);
      if (open === -1) break;

      if (text.startsWith('<?', open)) {
        const close = text.indexOf('?>', open + 2);
        if (close === -1) fail('unterminated processing instruction', open);
        position = close + 2;
      } else if (text.startsWith('<!--', open)) {
        const close = text.indexOf('-->', open + 4);
        if (close === -1) fail('unterminated comment', open);
        position = close + 3;
      } else if (text.startsWith('<![CDATA[', open)) {
        const close = text.indexOf(']]>', open + 9);
        if (close === -1) fail('unterminated CDATA section', open);
        if (!current) fail('CDATA outside the root element', open);
        (current as Open).cdata += text.slice(open + 9, close);
        position = close + 3;
      } else if (text[open + 1] === '/') {
        const close = text.indexOf('>', open);
        if (close === -1) fail('unterminated end tag', open);
        const name = text.slice(open + 2, close).trim();
        if (!current || current.name !== name) {
          fail(current ? `</${name}> closes <${current.name}>` : `</${name}> closes nothing`, open);
        }
        stack.pop();
        addChild(stack[stack.length - 1] ?? document, name, elementValue(current as Open));
        position = close + 1;
      } else {
        NAME.lastIndex = open + 1;
        const name = NAME.exec(text)?.[0];
        if (name === undefined) fail('a "<" that starts no element', open);
        if (RESERVED.has(name as string)) fail(`the element name <${name}> is reserved`, open);
        if (stack.length === 0 && document.children) fail('a second root element', open);
        elements += 1;
        if (elements % ELEMENTS_PER_TURN === 0) await nextTurn();
        if (elements > limits.elements) {
          throw new HttpError(413, 'The XML body has more than %fieldValue elements.', [
            { fieldName: 'body', fieldValue: String(limits.elements) },
          ]);
        }
        if (stack.length + 1 > limits.depth) {
          throw new HttpError(400, 'The XML body nests elements deeper than %fieldValue levels.', [
            { fieldName: 'body', fieldValue: String(limits.depth) },
          ]);
        }
        // Skip attributes: up to the first ">" outside quotes.
        let at = open + 1 + (name as string).length;
        let quote = '';
        for (; at < text.length; at++) {
          const char = text[at];
          if (quote) {
            if (char === quote) quote = '';
          } else if (char === '"' || char === "'") quote = char;
          else if (char === '>') break;
          else if (char === '<') fail(`unterminated tag <${name}>`, open);
        }
        if (at >= text.length) fail(`unterminated tag <${name}>`, open);
        const element: Open = { name: name as string, children: null, text: '', cdata: '' };
        if (text[at - 1] === '/') addChild(current ?? document, element.name, '');
        else stack.push(element);
        position = at + 1;
      }
    }
    if (stack.length > 0) fail(`<${stack[stack.length - 1]?.name}> is never closed`, text.length);
    if (!document.children) fail('no root element', text.length);
  } catch (error) {
    if (error instanceof Malformed) {
      throw undecodableBody('The request body is not well-formed XML: %fieldValue', error.message);
    }
    throw error;
  }
  return document.children as XmlChildren;
}
