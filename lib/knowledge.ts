import { Duration, RemovalPolicy, Stack, Validations, type CfnElement } from 'aws-cdk-lib';
import { PolicyStatement, type IRole } from 'aws-cdk-lib/aws-iam';
import { BlockPublicAccess, Bucket, BucketEncryption, HttpMethods } from 'aws-cdk-lib/aws-s3';
import { CfnVectorBucket } from 'aws-cdk-lib/aws-s3vectors';
import { Construct } from 'constructs';

/**
 * What a process does with the knowledge files: `search` reads indexes (the agent and stream
 * functions, the agent service, the chat bridge); `upload` also keeps uploaded documents (the API
 * function, which serves searches too); `ingest` also writes passages and index versions and
 * deletes (the jobs consumer: a replaced index version, a deleted document's files). Deleting a
 * document only queues its removal, so the API deletes one kind of file only: an upload's, once
 * claimed.
 */
export type KnowledgeAccess = 'search' | 'upload' | 'ingest';

/** The object actions of each access: what shared/platform/blobs-s3.ts calls (GetObject, PutObject, DeleteObject). */
const OBJECT_ACTIONS: Record<KnowledgeAccess, string[]> = {
  search: ['s3:GetObject'],
  upload: ['s3:GetObject', 's3:PutObject'],
  ingest: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject'],
};

/**
 * Knowledge documents' files: each document as uploaded or fetched, its passages, and each
 * workspace's passage index (shared/platform/blobs-s3.ts, keys in shared/knowledge). Operator data:
 * retained with the stack, private, TLS only, encrypted with S3-managed keys, as the stack's other
 * buckets and queues are (the secrets' KMS key wraps secrets in the table, not resources).
 */
/**
 * Hybrid retrieval on AWS (docs/knowledge.md, "Embeddings"): an Amazon Bedrock embedding model
 * (`amazon.titan-embed-text-v2:0` unless named) and the passages' vectors in an S3 vector bucket.
 */
export interface KnowledgeEmbeddings {
  model?: string;
  dimensions?: number;
}

/** The vector actions of each access: what shared/platform/vectors-s3.ts calls. */
const VECTOR_ACTIONS: Record<KnowledgeAccess, string[]> = {
  search: ['s3vectors:QueryVectors', 's3vectors:GetVectors'],
  upload: ['s3vectors:QueryVectors', 's3vectors:GetVectors'],
  ingest: ['s3vectors:CreateIndex', 's3vectors:PutVectors', 's3vectors:DeleteVectors', 's3vectors:QueryVectors', 's3vectors:GetVectors'],
};

export class Knowledge extends Construct {
  readonly bucket: Bucket;
  /** The passages' vectors, with an embedding model configured; an index per workspace, made at run time. */
  readonly vectorBucket: CfnVectorBucket | undefined;
  private readonly embeddingModel: string;

  constructor(
    scope: Construct,
    id: string,
    private readonly embeddings?: KnowledgeEmbeddings,
  ) {
    super(scope, id);
    this.embeddingModel = embeddings?.model ?? 'amazon.titan-embed-text-v2:0';
    // Encrypted with S3-managed keys (SSE-S3), S3 Vectors' default, as the files' bucket.
    this.vectorBucket = embeddings ? new CfnVectorBucket(this, 'Vectors', { encryptionConfiguration: { sseType: 'AES256' } }) : undefined;
    this.vectorBucket?.applyRemovalPolicy(RemovalPolicy.RETAIN);
    this.bucket = new Bucket(this, 'Files', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      // A file is written whole (PutObject); a multipart upload left unfinished is billed until aborted.
      // A file sent to an upload (`uploads/`) is claimed by its document within 15 minutes and then
      // deleted; one never claimed goes after a day.
      lifecycleRules: [
        { abortIncompleteMultipartUploadAfter: Duration.days(1) },
        { id: 'UnclaimedUploads', prefix: 'uploads/', expiration: Duration.days(1) },
      ],
      // Browsers send files to uploads by presigned POSTs (shared/knowledge/documents/uploads.ts): the
      // console is on the front door's domain, the bucket on S3's. From any origin: what lets a POST
      // in is its signed policy (one key, a bounded size, 15 minutes), which a page cannot forge;
      // CORS only decides whether a browser may read the answer. (Naming the front door's domain
      // would be a cycle: its origins need the functions, whose policies name this bucket.)
      cors: [{ allowedMethods: [HttpMethods.POST], allowedOrigins: ['*'], allowedHeaders: ['*'], maxAge: 3600 }],
      // Tenants' documents: kept when the stack is deleted, and removed by hand (docs/deploy.md).
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(this.bucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason:
        "Only the service's own roles reach it, by keys the service makes; each access is one of its requests or jobs, logged by them (CloudTrail data events are the operator's choice).",
    });
  }

  /**
   * Lets a function or task use the files as `access` says, and gives it the bucket's name
   * (`KNOWLEDGE_BUCKET`, which shared/wiring/aws-deps.ts requires at start).
   */
  wireFiles(role: IRole, addEnvironment: (key: string, value: string) => unknown, access: KnowledgeAccess): void {
    role.addToPrincipalPolicy(new PolicyStatement({ actions: OBJECT_ACTIONS[access], resources: [this.bucket.arnForObjects('*')] }));
    // Without ListBucket, S3 answers a missing key with 403 rather than NoSuchKey, which blobs-s3.ts reads as "none".
    role.addToPrincipalPolicy(new PolicyStatement({ actions: ['s3:ListBucket'], resources: [this.bucket.bucketArn] }));
    addEnvironment('KNOWLEDGE_BUCKET', this.bucket.bucketName);
    Validations.of(role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${Stack.of(this).getLogicalId(this.bucket.node.defaultChild as CfnElement)}.Arn>/*]`,
      reason:
        "Files are keyed per organisation and workspace at run time; the grant is this bucket's objects only, with the actions its access needs.",
    });
    // The API deletes one kind of file: an upload's, once its document has a copy (documents/uploads.ts).
    if (access === 'upload') {
      role.addToPrincipalPolicy(new PolicyStatement({ actions: ['s3:DeleteObject'], resources: [this.bucket.arnForObjects('uploads/*')] }));
      Validations.of(role).acknowledge({
        id: `AwsSolutions-IAM5[Resource::<${Stack.of(this).getLogicalId(this.bucket.node.defaultChild as CfnElement)}.Arn>/uploads/*]`,
        reason:
          "An upload's key is made at run time (its organisation, workspace and id); the grant is deleting this bucket's uploads only.",
      });
    }
    this.wireEmbeddings(role, addEnvironment, access);
  }

  /** With embeddings: the Bedrock model to embed with, and the vector bucket's indexes as `access` says. */
  private wireEmbeddings(role: IRole, addEnvironment: (key: string, value: string) => unknown, access: KnowledgeAccess): void {
    if (!this.vectorBucket) return;
    const model = `arn:aws:bedrock:${Stack.of(this).region}::foundation-model/${this.embeddingModel}`;
    role.addToPrincipalPolicy(new PolicyStatement({ actions: ['bedrock:InvokeModel'], resources: [model] }));
    const indexes = `${this.vectorBucket.attrVectorBucketArn}/index/*`;
    role.addToPrincipalPolicy(new PolicyStatement({ actions: VECTOR_ACTIONS[access], resources: [indexes] }));
    addEnvironment('EMBEDDINGS_PROVIDER', 'bedrock');
    addEnvironment('EMBEDDINGS_MODEL', this.embeddingModel);
    if (this.embeddings?.dimensions) addEnvironment('EMBEDDINGS_DIMENSIONS', String(this.embeddings.dimensions));
    addEnvironment('VECTOR_BUCKET_ARN', this.vectorBucket.attrVectorBucketArn);
    Validations.of(role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${Stack.of(this).getLogicalId(this.vectorBucket)}.VectorBucketArn>/index/*]`,
      reason:
        "A workspace's vector index is made at run time (named by a digest of its ids); the grant is this vector bucket's indexes only.",
    });
  }
}
