export * from './lookup-table';
