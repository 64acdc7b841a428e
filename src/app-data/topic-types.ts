// Topic types (v1 numbering): 3 = text topic, 4 = visual topic.
import { Type } from 'typebox';

export const TOPIC_TYPES: Array<{ id: number; label: string }> = [
  { id: 3, label: 'text topic' },
  { id: 4, label: 'visual topic' },
];

export const TopicTypeField = Type.Union([Type.Literal(3), Type.Literal(4)], { description: '3 = text topic, 4 = visual topic' });

export const TopicTypeSchema = Type.Object({ id: Type.Integer(), label: Type.String() });
